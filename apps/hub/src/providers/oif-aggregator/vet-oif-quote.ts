import type { StandardOrder } from "@hub/chain";
import type { Hex } from "viem";
import { type EvmOifLane, isOifProduct, laneTable, type OifLane } from "../../lanes/lane-table.js";
import { parseOifQuoteResponse } from "./oif-quote-response.js";
import { checkDeadlineBound } from "../../quotes/check-deadline-bound.js";
import { QuoteRejection, type QuoteRejectionReason } from "../../quotes/quote-rejection.js";
import type { QuoteWinner } from "@hub/contract";
import type { WinnerIdentity } from "../../quotes/quote-candidate.js";
import { isEvmSourceRoute, type QuoteRoute } from "../../quotes/resolve-quote-route.js";
import { checkStandardOrder } from "./check-standard-order.js";
import { vetEip3009Order } from "./vet-eip3009-order.js";
import { type SignTypedData, vetPermit2Order } from "./vet-permit2-order.js";

/** What every vetted upstream quote carries, whatever its lane. */
export interface VettedQuoteCommon {
  providerId: string;
  solverId: string;
  /** The provider id offers and winners carry: `<providerId>.<solverId>`. */
  offerProvider: string;
  /** The QuoteResponse exactly as received (echoed verbatim on submission). */
  quoteResponse: unknown;
  upstreamQuoteId: string;
  inputAmount: bigint;
  outputAmount: bigint;
  etaSeconds: number | undefined;
  /** Unix seconds. */
  validUntil: number;
}

/** An upstream quote on an EVM lane that passed every check, with what the hub rebuilt from it. */
export interface VettedEvmOifQuote extends VettedQuoteCommon {
  lane: EvmOifLane;
  order: StandardOrder;
  /** The typed data the user signs, rebuilt by the hub; its hash equals the upstream's (not disclosed on a proxy lane). */
  signPayload: SignTypedData;
  typedDataHash: Hex;
  /** Recomputed on the EIP-3009 lane (the authorization's nonce); unknown on the Permit2 lane (and the proxy lanes until disclosed). */
  onchainOrderId: Hex | undefined;
}

/**
 * A quote on the lane whose source is on another chain family (oif-escrow-nonevm), vetted by that
 * family's module, which also writes its winner and template.
 */
export interface VettedNonEvmOifQuote extends VettedQuoteCommon {
  lane: "oif-escrow-nonevm";
  /** The escrow order id, recomputed. */
  onchainOrderId: Hex;
  disclose(
    route: QuoteRoute,
    identity: WinnerIdentity,
  ): { winner: QuoteWinner; template: Record<string, unknown> };
}

/** An upstream quote that passed every check, with what the hub rebuilt from it. */
export type VettedOifQuote = VettedEvmOifQuote | VettedNonEvmOifQuote;

export type VetOutcome =
  | { ok: true; quote: VettedOifQuote }
  | { ok: false; reason: QuoteRejectionReason; detail: string; solverId: string | undefined };

export interface VettingContext {
  providerId: string;
  route: QuoteRoute;
  /** The lane the upstream was asked for; an answer on another lane is discarded. */
  askedLane: OifLane;
  nowMs: number;
  /** How far ahead the order's fillDeadline and expires may lie; 24 h when absent. */
  maxDeadlineMs?: number;
}

export const SOLVER_ID = /^[A-Za-z0-9._-]{1,31}$/;

function previewAmount(side: { amount?: string | undefined }[], what: string): bigint | undefined {
  if (side.length !== 1) throw new QuoteRejection("preview", `preview ${what} must hold one item`);
  const amount = side[0]!.amount;
  if (amount === undefined) return undefined;
  if (!/^[0-9]{1,78}$/.test(amount)) throw new QuoteRejection("preview", `preview ${what} amount ${amount}`);
  return BigInt(amount);
}

export function checkPreview(
  preview: { inputs: { amount?: string | undefined }[]; outputs: { amount?: string | undefined }[] },
  inputAmount: bigint,
  outputAmount: bigint,
): void {
  const previewIn = previewAmount(preview.inputs, "inputs");
  const previewOut = previewAmount(preview.outputs, "outputs");
  if (
    (previewIn !== undefined && previewIn !== inputAmount) ||
    (previewOut !== undefined && previewOut !== outputAmount)
  ) {
    throw new QuoteRejection("preview", "preview amounts differ from the signed order");
  }
}

/** The solverId of a raw answer, when it has one, for the log of its discarding. */
export function solverIdOf(raw: unknown): string | undefined {
  return typeof raw === "object" &&
    raw !== null &&
    typeof (raw as { solverId?: unknown }).solverId === "string"
    ? (raw as { solverId: string }).solverId
    : undefined;
}

/** A vetting failure as its outcome: a QuoteRejection's reason, or else malformed. */
export function rejectedOutcome(
  error: unknown,
  solverId: string | undefined,
): Extract<VetOutcome, { ok: false }> {
  if (error instanceof QuoteRejection)
    return { ok: false, reason: error.reason, detail: error.detail, solverId };
  return { ok: false, reason: "malformed", detail: (error as Error).message, solverId };
}

/**
 * Holds one upstream answer to the request and the catalog before it can win: a known lane (the one
 * asked for), the lane's typed data (domain, types, spender or recipient of the authorization, hash
 * recomputed), the StandardOrder it opens (user, assets, chains, amounts, recipient, oracles, settlers,
 * deadlines), and a preview that agrees with the signed amounts. The first failure discards it.
 */
export function vetOifQuote(raw: unknown, context: VettingContext): VetOutcome {
  const solverId = solverIdOf(raw);
  try {
    const parsed = parseOifQuoteResponse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new QuoteRejection("malformed", `${issue?.path.join(".")}: ${issue?.message}`);
    }
    const quote = parsed.data;
    if (!SOLVER_ID.test(quote.solverId)) throw new QuoteRejection("malformed", "solverId is not a plain id");
    if (!isOifProduct(quote.order.type))
      throw new QuoteRejection("unknown-lane", `order type ${quote.order.type}`);
    const lane = context.askedLane;
    if (laneTable[lane].oif.product !== quote.order.type) {
      throw new QuoteRejection(
        "lane-not-asked",
        `answered ${quote.order.type} to a request for ${context.askedLane}`,
      );
    }
    const route = context.route;
    if (!isEvmSourceRoute(route)) throw new Error("an EVM lane asked for a source on another chain family");
    const vetted =
      laneTable[lane].oif.scheme === "eip3009"
        ? vetEip3009Order(quote, route)
        : vetPermit2Order(quote, route);
    const nowSeconds = Math.floor(context.nowMs / 1000);
    checkStandardOrder(vetted.order, route, { validUntil: quote.validUntil, nowSeconds });
    const { fillDeadline, expires } = vetted.order;
    checkDeadlineBound({ fillDeadline, expires }, context.nowMs, context.maxDeadlineMs);
    const inputAmount = vetted.order.inputs[0]![1];
    const outputAmount = vetted.order.outputs[0]!.amount;
    checkPreview(quote.preview, inputAmount, outputAmount);
    return {
      ok: true,
      quote: {
        providerId: context.providerId,
        solverId: quote.solverId,
        offerProvider: `${context.providerId}.${quote.solverId}`,
        lane: lane as EvmOifLane,
        quoteResponse: raw,
        upstreamQuoteId: quote.quoteId,
        inputAmount,
        outputAmount,
        etaSeconds: quote.eta,
        validUntil: quote.validUntil!,
        order: vetted.order,
        signPayload: vetted.signPayload,
        typedDataHash: vetted.typedDataHash,
        onchainOrderId: "onchainOrderId" in vetted ? (vetted.onchainOrderId as Hex) : undefined,
      },
    };
  } catch (error) {
    return rejectedOutcome(error, solverId);
  }
}
