import { quoteLanes } from "./quote-lanes.js";
import type { VettedQuote } from "./vet-quote.js";

const laneOrder = Object.keys(quoteLanes);

/**
 * Best first: the most output for the amount (exact-input) or the least input for it (exact-output);
 * then the shortest eta (none last); then the EIP-3009 lane (it needs no Permit2 approval); then by
 * provider id, so equal offers always rank the same way.
 */
export function compareQuotes(
  a: VettedQuote,
  b: VettedQuote,
  swapType: "exact-input" | "exact-output",
): number {
  if (swapType === "exact-input" && a.outputAmount !== b.outputAmount)
    return a.outputAmount > b.outputAmount ? -1 : 1;
  if (swapType === "exact-output" && a.inputAmount !== b.inputAmount)
    return a.inputAmount < b.inputAmount ? -1 : 1;
  const etaA = a.etaSeconds ?? Number.POSITIVE_INFINITY;
  const etaB = b.etaSeconds ?? Number.POSITIVE_INFINITY;
  if (etaA !== etaB) return etaA < etaB ? -1 : 1;
  const lane = laneOrder.indexOf(b.lane) - laneOrder.indexOf(a.lane);
  if (lane !== 0) return lane;
  if (a.offerProvider !== b.offerProvider) return a.offerProvider < b.offerProvider ? -1 : 1;
  return a.upstreamQuoteId < b.upstreamQuoteId ? -1 : a.upstreamQuoteId > b.upstreamQuoteId ? 1 : 0;
}
