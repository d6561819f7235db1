import { isOifProduct } from "../../../lanes/lane-table.js";
import { checkDeadlineBound } from "../../../quotes/check-deadline-bound.js";
import { QuoteRejection } from "../../../quotes/quote-rejection.js";
import {
  checkPreview,
  rejectedOutcome,
  SOLVER_ID,
  solverIdOf,
  type VetOutcome,
  type VettedNonEvmOifQuote,
  type VettingContext,
} from "../vet-oif-quote.js";
import { discloseSolanaOifQuote, type VettedSolanaOifQuote } from "./disclose-solana-oif-quote.js";
import { oifSolanaQuoteResponseSchema } from "./solana-oif-quote-response.js";
import { type SolanaVettingFacts, vetSolanaOrder } from "./vet-solana-order.js";

/** A vetting outcome whose quote is known to be a Solana source's. */
export type SolanaVetOutcome =
  | { ok: true; quote: VettedNonEvmOifQuote & VettedSolanaOifQuote }
  | Extract<VetOutcome, { ok: false }>;

/** The oif-escrow-nonevm answer: the envelope as on the EVM lanes, the payload by vetSolanaOrder. */
function vetSolanaQuote(raw: unknown, context: VettingContext, facts: SolanaVettingFacts): SolanaVetOutcome {
  const parsed = oifSolanaQuoteResponseSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new QuoteRejection("malformed", `${issue?.path.join(".")}: ${issue?.message}`);
  }
  const quote = parsed.data;
  if (!SOLVER_ID.test(quote.solverId)) throw new QuoteRejection("malformed", "solverId is not a plain id");
  if (!isOifProduct(quote.order.type))
    throw new QuoteRejection("unknown-lane", `order type ${quote.order.type}`);
  if (quote.order.type !== "oif-svm-escrow-v0") {
    throw new QuoteRejection(
      "lane-not-asked",
      `answered ${quote.order.type} to a request for oif-escrow-nonevm`,
    );
  }
  const { route } = context;
  if (route.direction !== "solana-to-evm") {
    throw new Error("oif-escrow-nonevm is asked for a Solana source only, with its vetting facts");
  }
  const vetted = vetSolanaOrder(quote.order.payload, quote.solverId, route, facts, {
    validUntil: quote.validUntil,
    nowSeconds: Math.floor(context.nowMs / 1000),
  });
  checkDeadlineBound(
    { fillDeadline: vetted.fillDeadline, expires: vetted.escrowOrder.expires },
    context.nowMs,
    context.maxDeadlineMs,
  );
  const inputAmount = vetted.escrowOrder.amount;
  const outputAmount = vetted.output.amount;
  checkPreview(quote.preview, inputAmount, outputAmount);
  const vettedQuote: VettedSolanaOifQuote = {
    providerId: context.providerId,
    solverId: quote.solverId,
    offerProvider: `${context.providerId}.${quote.solverId}`,
    lane: "oif-escrow-nonevm",
    quoteResponse: raw,
    upstreamQuoteId: quote.quoteId,
    inputAmount,
    outputAmount,
    etaSeconds: quote.eta,
    validUntil: quote.validUntil!,
    solana: vetted,
    onchainOrderId: vetted.onchainOrderId,
  };
  return {
    ok: true,
    quote: {
      ...vettedQuote,
      disclose: (asked, identity) => discloseSolanaOifQuote(vettedQuote, asked, identity),
    },
  };
}

/**
 * Holds one oif-escrow-nonevm answer as vetOifQuote holds an EVM lane's: the envelope, then the payload
 * by vetSolanaOrder against the provider's fee payers and the sender's token account. The first
 * failure discards it.
 */
export function vetSolanaOifQuote(
  raw: unknown,
  context: VettingContext,
  facts: SolanaVettingFacts,
): SolanaVetOutcome {
  const solverId = solverIdOf(raw);
  try {
    return vetSolanaQuote(raw, context, facts);
  } catch (error) {
    return rejectedOutcome(error, solverId);
  }
}
