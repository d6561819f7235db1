import { bridgeAbi } from "@hub/chain";
import { type Hex, decodeFunctionData } from "viem";
import { z } from "zod";
import type { ExternalLane, OpenFlowDeposit } from "./open-flow-template.js";
import { type QuoteRejectionReason, QuoteRejection } from "./quote-rejection.js";
import type { QuoteRoute } from "./resolve-quote-route.js";

/** What an external answer says it is; an answer without `kind` is a bridge transfer. */
export type ExternalAnswerKind = "bridge" | "solver-swap" | "transfer";

/** The lane and execution class each kind of external answer takes. */
export const externalKinds = {
  bridge: { lane: "open-flow", executionClass: "BRIDGE" },
  "solver-swap": { lane: "solver-swap", executionClass: "INFINITY_SOLVER" },
  transfer: { lane: "transfer", executionClass: "TRANSFER" },
} as const satisfies Record<ExternalAnswerKind, { lane: ExternalLane; executionClass: string }>;

/** executionTx of an open-flow answer as vetted: chain-domain chain ids, the upstream's own values. */
export interface ExternalExecutionTx {
  approvals: { chainId: string; token: string; spender: string; amount: string }[];
  steps: { chainId: string; to: string; data: string; value: string; description: string }[];
}

/** An external answer that passed every check. */
export interface VettedExternalQuote {
  providerId: string;
  solverId: string;
  /** `<providerId>.<solverId>`. */
  offerProvider: string;
  kind: ExternalAnswerKind;
  lane: ExternalLane;
  executionClass: string;
  upstreamQuoteId: string;
  /** The answer exactly as received. */
  quoteResponse: unknown;
  inputAmount: bigint;
  outputAmount: bigint;
  etaSeconds: number | undefined;
  /** The upstream's expiresAt, milliseconds since the epoch. */
  validUntilMs: number;
  /** Open flow only. */
  executionTx: ExternalExecutionTx | undefined;
  /** Open flow only: the deposit the step makes, read from its calldata. */
  deposit: OpenFlowDeposit | undefined;
}

export type ExternalVetOutcome =
  | { ok: true; quote: VettedExternalQuote }
  | { ok: false; reason: QuoteRejectionReason; detail: string; upstreamQuoteId: string | undefined };

export interface ExternalVettingContext {
  providerId: string;
  route: QuoteRoute;
  nowMs: number;
  /** The least validity an answer must have left, so the user can still act on it. */
  minValidityMs: number;
}

const SOLVER_ID = /^[A-Za-z0-9._-]{1,31}$/;
const BASE_UNITS = /^(0|[1-9][0-9]{0,77})$/;
const HEX_DATA = /^0x([0-9a-f]{2})*$/;

const externalAnswerSchema = z.looseObject({
  quoteId: z.string().min(1).max(128),
  provider: z.string().regex(SOLVER_ID).optional(),
  kind: z.string().optional(),
  executionClass: z.string().optional(),
  sourceAsset: z.string(),
  destinationAsset: z.string(),
  amountIn: z.string().regex(BASE_UNITS),
  amountOut: z.string().regex(BASE_UNITS),
  recipient: z.string(),
  sourceAccount: z.string().optional(),
  expiresAt: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "not a date"),
  depositRef: z.string().optional(),
  etaSeconds: z.number().int().nonnegative().optional(),
  executionTx: z
    .looseObject({
      approvals: z.array(
        z.looseObject({
          chainId: z.unknown(),
          token: z.string(),
          spender: z.string(),
          amount: z.string().regex(BASE_UNITS),
        }),
      ),
      steps: z.array(
        z.looseObject({
          chainId: z.unknown(),
          to: z.string(),
          data: z.string().regex(HEX_DATA),
          value: z.string().regex(BASE_UNITS),
          description: z.string(),
        }),
      ),
    })
    .optional(),
});

type ExternalAnswer = z.infer<typeof externalAnswerSchema>;

function reject(reason: QuoteRejectionReason, detail: string): never {
  throw new QuoteRejection(reason, detail);
}

function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The chain id an external executionTx must carry: the source chain's CAIP-2 string, exactly. */
function checkChainId(chainId: unknown, route: QuoteRoute, where: string): string {
  if (chainId !== route.source.chain.chainDomain) {
    reject(
      "chain-id",
      `${where} chainId ${JSON.stringify(chainId)} is not ${route.source.chain.chainDomain}`,
    );
  }
  return chainId;
}

/** One approval of the source token to the catalog's bridge, and one Bridge.deposit of the request to it. */
function vetBridgeTransactions(
  answer: ExternalAnswer,
  route: QuoteRoute,
): { executionTx: ExternalExecutionTx; deposit: OpenFlowDeposit } {
  const { source, destination } = route;
  if (source.chain.chainId === destination.chain.chainId)
    reject("kind", "a bridge answer for a same-chain request");
  const bridge = source.chain.bridge as `0x${string}` | undefined;
  if (bridge === undefined) reject("deposit", `the catalog names no bridge on ${source.chain.chainDomain}`);
  const tx = answer.executionTx;
  if (tx === undefined) reject("deposit", "a bridge answer without executionTx");

  if (tx.approvals.length !== 1) reject("approval", `${tx.approvals.length} approvals, not one`);
  const approval = tx.approvals[0]!;
  const approvalChain = checkChainId(approval.chainId, route, "approval");
  if (!sameAddress(approval.token, source.token))
    reject("approval", `approval of token ${approval.token}, not the source token ${source.token}`);
  if (!sameAddress(approval.spender, bridge))
    reject("approval", `approval to ${approval.spender}, not the bridge ${bridge}`);
  if (approval.amount !== route.amount.toString())
    reject("approval", `approval of ${approval.amount}, not the amount ${route.amount}`);

  if (tx.steps.length !== 1) reject("deposit", `${tx.steps.length} steps, not one`);
  const step = tx.steps[0]!;
  const stepChain = checkChainId(step.chainId, route, "step");
  if (!sameAddress(step.to, bridge)) reject("deposit", `step to ${step.to}, not the bridge ${bridge}`);
  if (step.value !== "0") reject("deposit", `step value ${step.value}, not 0`);
  let call: ReturnType<typeof decodeFunctionData<typeof bridgeAbi>>;
  try {
    call = decodeFunctionData({ abi: bridgeAbi, data: step.data as Hex });
  } catch {
    reject("deposit", "step calldata is not a Bridge call");
  }
  if (call.functionName !== "deposit") reject("deposit", `step calls ${call.functionName}, not deposit`);
  const [token, amount, destinationChainId, recipient, ref] = call.args as readonly [
    `0x${string}`,
    bigint,
    bigint,
    `0x${string}`,
    `0x${string}`,
  ];
  if (!sameAddress(token, source.token)) reject("deposit", `deposit of token ${token}, not ${source.token}`);
  if (amount !== route.amount) reject("deposit", `deposit of ${amount}, not the amount ${route.amount}`);
  if (destinationChainId !== BigInt(destination.chain.chainId))
    reject("deposit", `deposit to chain ${destinationChainId}, not ${destination.chain.chainId}`);
  if (!sameAddress(recipient, route.recipient))
    reject("deposit", `deposit for ${recipient}, not the recipient ${route.recipient}`);
  if (answer.depositRef !== undefined && !sameAddress(answer.depositRef, ref))
    reject("deposit", `deposit ref ${ref} is not the answer's depositRef ${answer.depositRef}`);

  return {
    executionTx: {
      approvals: [
        { chainId: approvalChain, token: approval.token, spender: approval.spender, amount: approval.amount },
      ],
      steps: [
        {
          chainId: stepChain,
          to: step.to,
          data: step.data,
          value: step.value,
          description: step.description,
        },
      ],
    },
    deposit: {
      bridge: bridge.toLowerCase() as `0x${string}`,
      token: token.toLowerCase() as `0x${string}`,
      amount: amount.toString(),
      destinationChainId: Number(destinationChainId),
      recipient: recipient.toLowerCase() as `0x${string}`,
      ref: ref.toLowerCase() as `0x${string}`,
    },
  };
}

function vetAnswer(answer: ExternalAnswer, context: ExternalVettingContext): VettedExternalQuote {
  const { route } = context;
  const kind = (answer.kind ?? "bridge") as ExternalAnswerKind;
  if (!Object.hasOwn(externalKinds, kind)) reject("kind", `unknown kind ${JSON.stringify(answer.kind)}`);
  const { lane, executionClass } = externalKinds[kind];
  if (answer.executionClass !== undefined && answer.executionClass !== executionClass)
    reject("kind", `a ${kind} answer of execution class ${answer.executionClass}, not ${executionClass}`);

  if (answer.sourceAsset !== route.source.asset.key)
    reject("input", `source asset ${answer.sourceAsset}, not ${route.source.asset.key}`);
  if (answer.destinationAsset !== route.destination.asset.key)
    reject("output", `destination asset ${answer.destinationAsset}, not ${route.destination.asset.key}`);
  const inputAmount = BigInt(answer.amountIn);
  if (inputAmount !== route.amount)
    reject("amount", `amountIn ${inputAmount}, not the amount ${route.amount}`);
  const outputAmount = BigInt(answer.amountOut);
  if (outputAmount === 0n) reject("output", "amountOut is 0");
  if (!sameAddress(answer.recipient, route.recipient))
    reject("recipient", `recipient ${answer.recipient}, not ${route.recipient}`);
  if (
    answer.sourceAccount !== undefined &&
    !(route.sourceAccountSent && sameAddress(answer.sourceAccount, route.user))
  )
    reject("user", `sourceAccount ${answer.sourceAccount} was not the one asked for`);
  const validUntilMs = Date.parse(answer.expiresAt);
  if (validUntilMs - context.nowMs < context.minValidityMs)
    reject("expired", `expiresAt ${answer.expiresAt} leaves under ${context.minValidityMs} ms`);

  let transactions: ReturnType<typeof vetBridgeTransactions> | undefined;
  if (kind === "bridge") transactions = vetBridgeTransactions(answer, route);
  else {
    if (route.source.chain.chainId !== route.destination.chain.chainId)
      reject("kind", `a ${kind} answer for a cross-chain request`);
    if (kind === "transfer" && route.source.asset.key !== route.destination.asset.key)
      reject("kind", "a transfer answer between two assets");
    if (kind === "solver-swap" && route.source.asset.key === route.destination.asset.key)
      reject("kind", "a solver-swap answer for one asset");
    if (answer.executionTx !== undefined) reject("kind", `a ${kind} answer carries executionTx`);
  }

  const solverId = answer.provider ?? "external";
  return {
    providerId: context.providerId,
    solverId,
    offerProvider: `${context.providerId}.${solverId}`,
    kind,
    lane,
    executionClass,
    upstreamQuoteId: answer.quoteId,
    quoteResponse: answer,
    inputAmount,
    outputAmount,
    etaSeconds: answer.etaSeconds,
    validUntilMs,
    executionTx: transactions?.executionTx,
    deposit: transactions?.deposit,
  };
}

/**
 * Holds one external aggregator answer to the request and the catalog before it can win: its kind,
 * assets, amounts, recipient, sourceAccount and validity; on a bridge answer, the chain-domain chain
 * ids, one approval of the source token to the catalog's bridge and one Bridge.deposit step whose
 * arguments are the request's. The first failure discards it.
 */
export function vetExternalQuote(raw: unknown, context: ExternalVettingContext): ExternalVetOutcome {
  const parsed = externalAnswerSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const upstreamQuoteId =
      typeof raw === "object" && raw !== null && typeof (raw as { quoteId?: unknown }).quoteId === "string"
        ? (raw as { quoteId: string }).quoteId
        : undefined;
    return {
      ok: false,
      reason: "malformed",
      detail: `${issue?.path.join(".") || "answer"}: ${issue?.message ?? "invalid"}`,
      upstreamQuoteId,
    };
  }
  try {
    return { ok: true, quote: vetAnswer(parsed.data, context) };
  } catch (error) {
    if (error instanceof QuoteRejection) {
      return { ok: false, reason: error.reason, detail: error.detail, upstreamQuoteId: parsed.data.quoteId };
    }
    throw error;
  }
}
