import { bridgeAbi } from "@hub/chain";
import { decodeFunctionData, encodeFunctionData, formatUnits, type Hex } from "viem";
import { z } from "zod";
import { type ExternalLane, laneTable } from "../../lanes/lane-table.js";
import { QuoteRejection, type QuoteRejectionReason } from "../quote-rejection.js";
import type { EvmQuoteRoute } from "../resolve-quote-route.js";
import type { OpenFlowDeposit } from "./open-flow-template.js";

/** What an external answer says it is; an answer without `kind` is a bridge transfer. */
export type ExternalAnswerKind = "bridge" | "solver-swap" | "transfer";

/** The lane and execution class each kind of external answer takes. */
export const externalKinds = {
  bridge: { lane: "open-flow", executionClass: "BRIDGE" },
  "solver-swap": { lane: "solver-swap", executionClass: "INFINITY_SOLVER" },
  transfer: { lane: "transfer", executionClass: "TRANSFER" },
} as const satisfies Record<ExternalAnswerKind, { lane: ExternalLane; executionClass: string }>;

/**
 * executionTx of an open-flow answer as the hub discloses it: chain-domain chain ids, addresses and
 * calldata lowercase, and a step description the hub writes from the decoded calldata.
 */
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
  route: EvmQuoteRoute;
  nowMs: number;
  /** The least validity an answer must have left, so the user can still act on it. */
  minValidityMs: number;
  /**
   * The least validity an open-flow answer must have left: the user mines an approval and a deposit
   * before POST /order, which must still find the quote valid.
   */
  openFlowMinValidityMs: number;
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

/** An amount of one token in base units of another at a 1:1 rate, rounded down. */
function rescaled(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  return amount / 10n ** BigInt(fromDecimals - toDecimals);
}

/** A lone UTF-16 surrogate: a paired one is part of a code point above U+FFFF and never matches. */
const UNPAIRED_SURROGATE = /\p{Cs}/u;

/** Whether PostgreSQL's jsonb can hold the text: no NUL, no unpaired surrogate. */
function storable(text: string): boolean {
  return !text.includes("\0") && !UNPAIRED_SURROGATE.test(text);
}

/**
 * The path of the first string (value or key) in the answer that jsonb cannot store, or undefined.
 * The answer is stored whole, so one such string anywhere would fail the round's insert. Walked
 * with a list rather than recursion, so a deeply nested answer cannot exhaust the stack.
 */
function unstorableText(answer: unknown): string | undefined {
  const pending: { value: unknown; path: string }[] = [{ value: answer, path: "answer" }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string" && !storable(value)) return path;
    if (typeof value !== "object" || value === null) continue;
    for (const [key, item] of Object.entries(value)) {
      if (!storable(key)) return `${path} (a key)`;
      pending.push({ value: item, path: `${path}.${key}` });
    }
  }
  return undefined;
}

/** The chain id an external executionTx must carry: the source chain's CAIP-2 string, exactly. */
function checkChainId(chainId: unknown, route: EvmQuoteRoute, where: string): string {
  if (chainId !== route.source.chain.chainDomain) {
    reject(
      "chain-id",
      `${where} chainId ${JSON.stringify(chainId)} is not ${route.source.chain.chainDomain}`,
    );
  }
  return chainId;
}

/**
 * What a bridge answer's receive side can be held to. Bridge.deposit names neither a destination token
 * nor a minimum output, so both are the aggregator's word: the destination must be a declared token of
 * the same symbol (the catalog has no counterpart table), and the destination chain must have a
 * catalog bridge, or the release could never be observed.
 */
function vetBridgeDestination(route: EvmQuoteRoute): void {
  const { source, destination } = route;
  const declared = destination.chain.assets.some(
    (asset) => asset.key === destination.asset.key && asset.address !== undefined,
  );
  if (!declared)
    reject("output", `${destination.asset.key} is not a declared token of ${destination.chain.chainDomain}`);
  if (destination.asset.symbol !== source.asset.symbol)
    reject(
      "output",
      `a bridge of ${source.asset.symbol} cannot deliver ${destination.asset.symbol} (${destination.asset.key})`,
    );
  if (destination.chain.bridge === undefined)
    reject("deposit", `the catalog names no bridge on ${destination.chain.chainDomain} to release from`);
}

/**
 * The step's words, written by the hub from the decoded calldata: the aggregator's own description is
 * never shown, as a wallet user reads it as the hub's.
 */
function depositDescription(
  route: EvmQuoteRoute,
  bridge: string,
  deposit: { amount: bigint; destinationChainId: bigint; recipient: string },
): string {
  const { asset } = route.source;
  const amount = `${formatUnits(deposit.amount, asset.decimals)} ${asset.symbol}`;
  const recipient = deposit.recipient.toLowerCase();
  return `Deposit ${amount} into the bridge at ${bridge} for eip155:${deposit.destinationChainId}, recipient ${recipient}`;
}

/**
 * One approval of the source token to the catalog's bridge, and one Bridge.deposit of the request to
 * it, whose calldata is exactly the canonical encoding of its arguments. The disclosed transactions
 * are rebuilt from the vetted values: lowercase addresses and the hub's own description.
 */
function vetBridgeTransactions(
  answer: ExternalAnswer,
  route: EvmQuoteRoute,
): { executionTx: ExternalExecutionTx; deposit: OpenFlowDeposit } {
  const { source, destination } = route;
  if (source.chain.chainId === destination.chain.chainId)
    reject("kind", "a bridge answer for a same-chain request");
  vetBridgeDestination(route);
  const bridge = source.chain.bridge?.toLowerCase() as `0x${string}` | undefined;
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
  const args = call.args as readonly [`0x${string}`, bigint, bigint, `0x${string}`, `0x${string}`];
  // viem decodes past trailing bytes and dirty address padding, which the contract would not accept.
  const canonical = encodeFunctionData({ abi: bridgeAbi, functionName: "deposit", args });
  if (canonical.toLowerCase() !== step.data.toLowerCase())
    reject("deposit", "step calldata is not the canonical encoding of its deposit arguments");
  const [token, amount, destinationChainId, recipient, ref] = args;
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
      approvals: [{ chainId: approvalChain, token: source.token, spender: bridge, amount: approval.amount }],
      steps: [
        {
          chainId: stepChain,
          to: bridge,
          data: canonical.toLowerCase(),
          value: "0",
          description: depositDescription(route, bridge, { amount, destinationChainId, recipient }),
        },
      ],
    },
    deposit: {
      bridge,
      token: source.token,
      amount: amount.toString(),
      destinationChainId: Number(destinationChainId),
      recipient: route.recipient,
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
  // Nothing the hub can check binds the output, so at most the input at a 1:1 rate: no kind of answer
  // (a bridge, a solver-swap, a transfer) creates value.
  const ceiling = rescaled(inputAmount, route.source.asset.decimals, route.destination.asset.decimals);
  if (outputAmount > ceiling)
    reject("amount", `amountOut ${outputAmount} exceeds amountIn ${inputAmount} at 1:1 (${ceiling})`);
  if (!sameAddress(answer.recipient, route.recipient))
    reject("recipient", `recipient ${answer.recipient}, not ${route.recipient}`);
  if (
    answer.sourceAccount !== undefined &&
    !(route.sourceAccountSent && sameAddress(answer.sourceAccount, route.user))
  )
    reject("user", `sourceAccount ${answer.sourceAccount} was not the one asked for`);
  const validUntilMs = Date.parse(answer.expiresAt);
  const minValidityMs =
    laneTable[lane].validity === "open-flow-window" ? context.openFlowMinValidityMs : context.minValidityMs;
  if (validUntilMs - context.nowMs < minValidityMs)
    reject("expired", `expiresAt ${answer.expiresAt} leaves under ${minValidityMs} ms`);

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
 * Holds one external aggregator answer to the request and the catalog before it can win: storable
 * text throughout, its kind, assets, amounts (the output at most the input at 1:1), recipient,
 * sourceAccount and validity (longer on the open flow); on a bridge answer, a declared same-symbol
 * destination with a catalog bridge, the chain-domain chain ids, one approval of the source token to
 * the catalog's bridge and one canonically encoded Bridge.deposit step whose arguments are the
 * request's. The first failure discards it.
 */
export function vetExternalQuote(raw: unknown, context: ExternalVettingContext): ExternalVetOutcome {
  const rawQuoteId =
    typeof raw === "object" && raw !== null && typeof (raw as { quoteId?: unknown }).quoteId === "string"
      ? (raw as { quoteId: string }).quoteId
      : undefined;
  // The id is logged: only when it is storable text itself.
  const upstreamQuoteId = rawQuoteId !== undefined && storable(rawQuoteId) ? rawQuoteId : undefined;
  const unstorable = unstorableText(raw);
  if (unstorable !== undefined) {
    return {
      ok: false,
      reason: "malformed",
      detail: `${unstorable}: a NUL or an unpaired surrogate, which the quote store cannot hold`,
      upstreamQuoteId,
    };
  }
  const parsed = externalAnswerSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
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
