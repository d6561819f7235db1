import { standardOrderToJson } from "@hub/chain";
import { type QuoteWinner, signableHash } from "@hub/contract";
import { laneTable, OIF_ESCROW_EXECUTION_CLASS } from "../../lanes/lane-table.js";
import type { QuoteCandidate, WinnerIdentity } from "../../quotes/quote-candidate.js";
import type { QuoteTemplate } from "../../quotes/quote-template.js";
import { committedTerms, quoteTerms } from "../../quotes/quote-terms.js";
import { type EvmSourceRoute, isEvmSourceRoute, type QuoteRoute } from "../../quotes/resolve-quote-route.js";
import type { VettedEvmOifQuote, VettedOifQuote } from "./vet-oif-quote.js";

/**
 * The disclosed winner. signPayload is the typed data the hub rebuilt (its hash equals the upstream's);
 * on the EIP-3009 lane it is wrapped as `{chainId, payload}`. The signable payload states the lane, what
 * is signed and the terms it commits to; signableHash is the contract's hash of it.
 */
function discloseWinner(
  quote: VettedEvmOifQuote,
  route: EvmSourceRoute,
  identity: WinnerIdentity,
): QuoteWinner {
  const terms = quoteTerms({ ...quote, executionClass: OIF_ESCROW_EXECUTION_CLASS }, route);
  const signPayload =
    laneTable[quote.lane].oif.scheme === "eip3009"
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
function oifQuoteTemplate(quote: VettedEvmOifQuote, route: EvmSourceRoute): QuoteTemplate {
  const { oif } = laneTable[quote.lane];
  return {
    version: 1,
    providerId: quote.providerId,
    solverId: quote.solverId,
    lane: quote.lane,
    orderType: oif.product,
    signatureScheme: oif.scheme as "permit2" | "eip3009",
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
export function oifCandidate(quote: VettedOifQuote, route: QuoteRoute): QuoteCandidate {
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
    disclose: (identity) => {
      if (quote.lane === "oif-escrow-nonevm") return quote.disclose(route, identity);
      if (!isEvmSourceRoute(route)) throw new Error("an EVM quote on a route from another chain family");
      return {
        winner: discloseWinner(quote, route, identity),
        template: oifQuoteTemplate(quote, route) as unknown as Record<string, unknown>,
      };
    },
  };
}
