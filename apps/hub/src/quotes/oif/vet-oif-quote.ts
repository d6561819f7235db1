import type { StandardOrder } from "@hub/chain";
import type { Hex } from "viem";
import { isOifProduct, laneTable, type OifLane } from "../../lanes/lane-table.js";
import { parseOifQuoteResponse } from "../../upstream/oif-quote-response.js";
import { QuoteRejection, type QuoteRejectionReason } from "../quote-rejection.js";
import type { QuoteRoute } from "../resolve-quote-route.js";
import { checkStandardOrder } from "./check-standard-order.js";
import { vetEip3009Order } from "./vet-eip3009-order.js";
import { type SignTypedData, vetPermit2Order } from "./vet-permit2-order.js";

/** An upstream quote that passed every check, with what the hub rebuilt from it. */
export interface VettedOifQuote {
  providerId: string;
  solverId: string;
  /** The provider id offers and winners carry: `<providerId>.<solverId>`. */
  offerProvider: string;
  lane: OifLane;
  /** The QuoteResponse exactly as received (echoed verbatim on submission). */
  quoteResponse: unknown;
  upstreamQuoteId: string;
  inputAmount: bigint;
  outputAmount: bigint;
  etaSeconds: number | undefined;
  /** Unix seconds. */
  validUntil: number;
  order: StandardOrder;
  /** The typed data the user signs, rebuilt by the hub; its hash equals the upstream's (not disclosed on a proxy lane). */
  signPayload: SignTypedData;
  typedDataHash: Hex;
  /** Recomputed on the EIP-3009 lane (the authorization's nonce); unknown on the Permit2 lane (and the proxy lanes until disclosed). */
  onchainOrderId: Hex | undefined;
}

export type VetOutcome =
  | { ok: true; quote: VettedOifQuote }
  | { ok: false; reason: QuoteRejectionReason; detail: string; solverId: string | undefined };

export interface VettingContext {
  providerId: string;
  route: QuoteRoute;
  /** The lane the upstream was asked for; an answer on another lane is discarded. */
  askedLane: OifLane;
  nowMs: number;
}

const SOLVER_ID = /^[A-Za-z0-9._-]{1,31}$/;

function previewAmount(side: { amount?: string | undefined }[], what: string): bigint | undefined {
  if (side.length !== 1) throw new QuoteRejection("preview", `preview ${what} must hold one item`);
  const amount = side[0]!.amount;
  if (amount === undefined) return undefined;
  if (!/^[0-9]{1,78}$/.test(amount)) throw new QuoteRejection("preview", `preview ${what} amount ${amount}`);
  return BigInt(amount);
}

/**
 * Holds one upstream answer to the request and the catalog before it can win: a known lane (the one
 * asked for), the lane's typed data (domain, types, spender or recipient of the authorization, hash
 * recomputed), the StandardOrder it opens (user, assets, chains, amounts, recipient, oracles, settlers,
 * deadlines), and a preview that agrees with the signed amounts. The first failure discards it.
 */
export function vetOifQuote(raw: unknown, context: VettingContext): VetOutcome {
  const solverId =
    typeof raw === "object" && raw !== null && typeof (raw as { solverId?: unknown }).solverId === "string"
      ? (raw as { solverId: string }).solverId
      : undefined;
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
    const vetted =
      laneTable[lane].oif.scheme === "eip3009"
        ? vetEip3009Order(quote, context.route)
        : vetPermit2Order(quote, context.route);
    const nowSeconds = Math.floor(context.nowMs / 1000);
    checkStandardOrder(vetted.order, context.route, { validUntil: quote.validUntil, nowSeconds });
    const inputAmount = vetted.order.inputs[0]![1];
    const outputAmount = vetted.order.outputs[0]!.amount;
    const previewIn = previewAmount(quote.preview.inputs, "inputs");
    const previewOut = previewAmount(quote.preview.outputs, "outputs");
    if (
      (previewIn !== undefined && previewIn !== inputAmount) ||
      (previewOut !== undefined && previewOut !== outputAmount)
    ) {
      throw new QuoteRejection("preview", "preview amounts differ from the signed order");
    }
    return {
      ok: true,
      quote: {
        providerId: context.providerId,
        solverId: quote.solverId,
        offerProvider: `${context.providerId}.${quote.solverId}`,
        lane,
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
    if (error instanceof QuoteRejection)
      return { ok: false, reason: error.reason, detail: error.detail, solverId };
    return { ok: false, reason: "malformed", detail: (error as Error).message, solverId };
  }
}
