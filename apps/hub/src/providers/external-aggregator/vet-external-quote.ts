import { type ExternalLane, laneTable } from "../../lanes/lane-table.js";
import { checkDeadlineBound } from "../../quotes/check-deadline-bound.js";
import { QuoteRejection, type QuoteRejectionReason } from "../../quotes/quote-rejection.js";
import type { EvmQuoteRoute } from "../../quotes/resolve-quote-route.js";
import { type ExternalAnswer, externalAnswerSchema, reject, sameAddress } from "./external-answer.js";
import type { OpenFlowDeposit } from "./open-flow-template.js";
import { storable, unstorableText } from "./unstorable-text.js";
import { type ExternalExecutionTx, vetBridgeTransactions } from "./vet-bridge-transactions.js";

export type { ExternalExecutionTx } from "./vet-bridge-transactions.js";

/** What an external answer says it is; an answer without `kind` is a bridge transfer. */
export type ExternalAnswerKind = "bridge" | "solver-swap" | "transfer";

/** The lane and execution class each kind of external answer takes. */
export const externalKinds = {
  bridge: { lane: "open-flow", executionClass: "BRIDGE" },
  "solver-swap": { lane: "solver-swap", executionClass: "INFINITY_SOLVER" },
  transfer: { lane: "transfer", executionClass: "TRANSFER" },
} as const satisfies Record<ExternalAnswerKind, { lane: ExternalLane; executionClass: string }>;

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
  /** How far ahead `expiresAt` may lie; 24 h when absent. */
  maxDeadlineMs?: number;
}

/** An amount of one token in base units of another at a 1:1 rate, rounded down. */
function rescaled(amount: bigint, fromDecimals: number, toDecimals: number): bigint {
  if (toDecimals >= fromDecimals) return amount * 10n ** BigInt(toDecimals - fromDecimals);
  return amount / 10n ** BigInt(fromDecimals - toDecimals);
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
  checkDeadlineBound({ expiresAt: Math.floor(validUntilMs / 1000) }, context.nowMs, context.maxDeadlineMs);

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
