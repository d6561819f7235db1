import { type StandardOrder, standardOrderToJson } from "@hub/chain";
import { type QuoteWinner, signableHash } from "@hub/contract";
import type { QuoteCandidate, WinnerIdentity } from "./quote-candidate.js";
import { OIF_ESCROW_EXECUTION_CLASS, quoteLanes } from "./quote-lanes.js";
import type { QuoteTemplate } from "./quote-template.js";
import type { QuoteRoute } from "./resolve-quote-route.js";
import type { VettedQuote } from "./vet-quote.js";

export type { WinnerIdentity } from "./quote-candidate.js";

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
  order: StandardOrder,
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

/**
 * The disclosed winner. signPayload is the typed data the hub rebuilt (its hash equals the upstream's);
 * on the EIP-3009 lane it is wrapped as `{chainId, payload}`. The signable payload states the lane, what
 * is signed and the terms it commits to; signableHash is the contract's hash of it.
 */
export function discloseWinner(quote: VettedQuote, route: QuoteRoute, identity: WinnerIdentity): QuoteWinner {
  const terms = quoteTerms({ ...quote, executionClass: OIF_ESCROW_EXECUTION_CLASS }, route);
  const signPayload =
    quote.lane === "aggregator-gasless"
      ? { chainId: route.source.chain.chainId, payload: quote.signPayload }
      : quote.signPayload;
  const signablePayload = {
    kind: quote.lane,
    signPayload,
    typedDataHash: quote.typedDataHash,
    terms: committedTerms(terms, route, quote.order, quote.onchainOrderId),
  };
  return {
    quoteRequestId: identity.quoteRequestId,
    quoteId: identity.quoteId,
    expiresAt: new Date(identity.expiresAtMs).toISOString(),
    ...terms,
    recipient: route.recipient,
    sourceAccount: route.user,
    ...(quote.onchainOrderId === undefined ? {} : { onchainOrderId: quote.onchainOrderId }),
    disclosure: { signablePayload, signableHash: signableHash(signablePayload) },
    signPayload,
  };
}

/** What the hub stores with an OIF-lane winner so any replica can forward it. */
export function oifQuoteTemplate(quote: VettedQuote, route: QuoteRoute): QuoteTemplate {
  return {
    version: 1,
    providerId: quote.providerId,
    solverId: quote.solverId,
    lane: quote.lane,
    orderType: quoteLanes[quote.lane].product,
    signatureScheme: quoteLanes[quote.lane].signatureScheme,
    quoteResponse: quote.quoteResponse,
    standardOrder: standardOrderToJson(quote.order),
    typedDataHash: quote.typedDataHash,
    ...(quote.onchainOrderId === undefined ? {} : { onchainOrderId: quote.onchainOrderId }),
    onchainOrderIdSource: quote.onchainOrderId === undefined ? "upstream" : "verified",
    user: route.user,
    recipient: route.recipient,
    validUntil: quote.validUntil,
  };
}

/** An OIF aggregator's vetted answer as a candidate of the round. */
export function oifCandidate(quote: VettedQuote, route: QuoteRoute): QuoteCandidate {
  return {
    providerId: quote.providerId,
    solverId: quote.solverId,
    offerProvider: quote.offerProvider,
    lane: quote.lane,
    executionClass: OIF_ESCROW_EXECUTION_CLASS,
    upstreamQuoteId: quote.upstreamQuoteId,
    inputAmount: quote.inputAmount,
    outputAmount: quote.outputAmount,
    etaSeconds: quote.etaSeconds,
    validUntilMs: quote.validUntil * 1000,
    registrableForMs: undefined,
    onchainOrderId: quote.onchainOrderId,
    disclose: (identity) => ({
      winner: discloseWinner(quote, route, identity),
      template: oifQuoteTemplate(quote, route) as unknown as Record<string, unknown>,
    }),
  };
}
