import { type QuoteWinner, signableHash } from "@hub/contract";
import { OIF_ESCROW_EXECUTION_CLASS } from "./quote-lanes.js";
import type { QuoteRoute } from "./resolve-quote-route.js";
import type { VettedQuote } from "./vet-quote.js";

export interface WinnerIdentity {
  quoteRequestId: string;
  quoteId: string;
  /** Milliseconds since the epoch. */
  expiresAtMs: number;
}

function iso(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

/** The offer's terms as every disclosure states them. */
export function quoteTerms(quote: VettedQuote, route: QuoteRoute) {
  return {
    provider: quote.offerProvider,
    lane: quote.lane,
    executionClass: OIF_ESCROW_EXECUTION_CLASS,
    input: { asset: route.source.asset.key, amount: quote.inputAmount.toString() },
    output: { asset: route.destination.asset.key, amount: quote.outputAmount.toString() },
    swapType: route.swapType,
  };
}

/**
 * The disclosed winner. signPayload is the typed data the hub rebuilt (its hash equals the upstream's);
 * on the EIP-3009 lane it is wrapped as `{chainId, payload}`. The signable payload states the lane, what
 * is signed and the terms it commits to; signableHash is the contract's hash of it.
 */
export function discloseWinner(quote: VettedQuote, route: QuoteRoute, identity: WinnerIdentity): QuoteWinner {
  const terms = quoteTerms(quote, route);
  const signPayload =
    quote.lane === "aggregator-gasless"
      ? { chainId: route.source.chain.chainId, payload: quote.signPayload }
      : quote.signPayload;
  const signablePayload = {
    kind: quote.lane,
    signPayload,
    typedDataHash: quote.typedDataHash,
    terms: {
      provider: terms.provider,
      input: terms.input,
      output: terms.output,
      swapType: terms.swapType,
      recipient: route.recipient,
      sourceAccount: route.user,
      fillDeadline: iso(quote.order.fillDeadline),
      refundableAfter: iso(quote.order.expires),
      ...(quote.onchainOrderId === undefined ? {} : { onchainOrderId: quote.onchainOrderId }),
    },
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
