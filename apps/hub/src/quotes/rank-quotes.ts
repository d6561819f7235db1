import type { Lane } from "@hub/contract";
import type { QuoteCandidate } from "./quote-candidate.js";

/**
 * Lanes best first when all else is equal: EIP-3009 needs no Permit2 approval; a signature lane costs
 * the user no gas; a proxy lane is one transaction; the open flow is the user's transactions and a
 * signature; winners that cannot be completed come last.
 */
const laneOrder: readonly Lane[] = [
  "aggregator-gasless",
  "oif-escrow-gasless",
  "oif-escrow-nonevm",
  "oif-wrap-native",
  "oif-swap-token",
  "open-flow",
  "solver-swap",
  "transfer",
];

/** What ranking reads of a quote. */
export type RankedQuote = Pick<
  QuoteCandidate,
  "inputAmount" | "outputAmount" | "etaSeconds" | "lane" | "offerProvider" | "upstreamQuoteId"
>;

/**
 * Best first: the most output for the amount (exact-input) or the least input for it (exact-output);
 * then the shortest eta (none last); then the lane (laneOrder); then by
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
  const lane = laneOrder.indexOf(a.lane) - laneOrder.indexOf(b.lane);
  if (lane !== 0) return lane;
  if (a.offerProvider !== b.offerProvider) return a.offerProvider < b.offerProvider ? -1 : 1;
  return a.upstreamQuoteId < b.upstreamQuoteId ? -1 : a.upstreamQuoteId > b.upstreamQuoteId ? 1 : 0;
}
