import { laneTable } from "../lanes/lane-table.js";
import type { QuoteCandidate } from "./quote-candidate.js";

/** What ranking reads of a quote. */
export type RankedQuote = Pick<
  QuoteCandidate,
  "inputAmount" | "outputAmount" | "etaSeconds" | "lane" | "offerProvider" | "upstreamQuoteId"
>;

/**
 * Best first: the most output for the amount (exact-input) or the least input for it (exact-output);
 * then the shortest eta (none last); then the lane (its rank in the lane table); then by
 * provider id, so equal offers always rank the same way.
 */
export function compareQuotes(
  a: RankedQuote,
  b: RankedQuote,
  swapType: "exact-input" | "exact-output",
): number {
  if (swapType === "exact-input" && a.outputAmount !== b.outputAmount)
    return a.outputAmount > b.outputAmount ? -1 : 1;
  if (swapType === "exact-output" && a.inputAmount !== b.inputAmount)
    return a.inputAmount < b.inputAmount ? -1 : 1;
  const etaA = a.etaSeconds ?? Number.POSITIVE_INFINITY;
  const etaB = b.etaSeconds ?? Number.POSITIVE_INFINITY;
  if (etaA !== etaB) return etaA < etaB ? -1 : 1;
  const lane = laneTable[a.lane].rank - laneTable[b.lane].rank;
  if (lane !== 0) return lane;
  if (a.offerProvider !== b.offerProvider) return a.offerProvider < b.offerProvider ? -1 : 1;
  return a.upstreamQuoteId < b.upstreamQuoteId ? -1 : a.upstreamQuoteId > b.upstreamQuoteId ? 1 : 0;
}
