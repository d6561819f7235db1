import type { StandardOrder } from "@hub/chain";
import type { QuoteCandidate } from "./quote-candidate.js";
import type { QuoteRoute } from "./resolve-quote-route.js";

function iso(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

/** The offer's terms as every disclosure states them. */
export function quoteTerms(
  quote: Pick<QuoteCandidate, "offerProvider" | "lane" | "executionClass" | "inputAmount" | "outputAmount">,
  route: QuoteRoute,
) {
  return {
    provider: quote.offerProvider,
    lane: quote.lane,
    executionClass: quote.executionClass,
    input: { asset: route.source.asset.key, amount: quote.inputAmount.toString() },
    output: { asset: route.destination.asset.key, amount: quote.outputAmount.toString() },
    swapType: route.swapType,
  };
}

/** What an OIF-lane disclosure commits to: the offer's terms, the accounts and the order's deadlines. */
export function committedTerms(
  terms: ReturnType<typeof quoteTerms>,
  route: QuoteRoute,
  order: Pick<StandardOrder, "fillDeadline" | "expires">,
  onchainOrderId: `0x${string}` | undefined,
) {
  return {
    provider: terms.provider,
    input: terms.input,
    output: terms.output,
    swapType: terms.swapType,
    recipient: route.recipient,
    sourceAccount: route.user,
    fillDeadline: iso(order.fillDeadline),
    refundableAfter: iso(order.expires),
    ...(onchainOrderId === undefined ? {} : { onchainOrderId }),
  };
}
