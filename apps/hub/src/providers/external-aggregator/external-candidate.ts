import { type QuoteWinner, signableHash } from "@hub/contract";
import { laneTable } from "../../lanes/lane-table.js";
import type { QuoteCandidate, WinnerIdentity } from "../../quotes/quote-candidate.js";
import { quoteTerms } from "../../quotes/quote-terms.js";
import type { EvmQuoteRoute, EvmRouteEnd } from "../../quotes/resolve-quote-route.js";
import {
  type OpenFlowLeg,
  type OpenFlowTemplate,
  openFlowTemplateFingerprint,
} from "./open-flow-template.js";
import { buildSignIntent } from "./sign-intent.js";
import type { VettedExternalQuote } from "./vet-external-quote.js";

function legOf(end: EvmRouteEnd, amount: bigint): OpenFlowLeg {
  return {
    chainDomain: end.chain.chainDomain,
    chainId: end.chain.chainId,
    asset: end.asset.key,
    amount: amount.toString(),
  };
}

/**
 * The winner and its stored template. The signable payload commits to the lane, the transactions
 * (open flow) and the terms; signIntent names the signable hash, and is built only when the request
 * named the paying account (POST /order's signer must equal it) on the lanes POST /order registers.
 */
function discloseExternalWinner(
  quote: VettedExternalQuote,
  route: EvmQuoteRoute,
  identity: WinnerIdentity,
): { winner: QuoteWinner; template: OpenFlowTemplate } {
  const terms = quoteTerms(quote, route);
  const expiresAt = new Date(identity.expiresAtMs).toISOString();
  const sourceAccount = route.sourceAccountSent ? route.user : undefined;
  const signablePayload = {
    kind: quote.lane,
    ...(quote.executionTx ? { executionTx: quote.executionTx } : {}),
    terms: {
      provider: terms.provider,
      input: terms.input,
      output: terms.output,
      swapType: terms.swapType,
      recipient: route.recipient,
      ...(sourceAccount ? { sourceAccount } : {}),
      expiresAt,
    },
  };
  const hash = signableHash(signablePayload) as `0x${string}`;
  // A winner POST /order does not register (transfer) has nothing to sign.
  const signIntent =
    sourceAccount &&
    laneTable[quote.lane].submission === "order" &&
    buildSignIntent({
      lane: quote.lane,
      quoteId: identity.quoteId,
      signableHash: hash,
      sourceAccount,
      input: { end: route.source, amount: quote.inputAmount },
      output: { end: route.destination, amount: quote.outputAmount },
      recipient: route.recipient,
      expiresAt,
    });
  const winner: QuoteWinner = {
    quoteRequestId: identity.quoteRequestId,
    quoteId: identity.quoteId,
    expiresAt,
    ...terms,
    recipient: route.recipient,
    ...(sourceAccount ? { sourceAccount } : {}),
    disclosure: { signablePayload, signableHash: hash },
    ...(quote.executionTx ? { executionTx: quote.executionTx } : {}),
    ...(signIntent ? { signIntent } : {}),
  };
  const unsigned: Omit<OpenFlowTemplate, "fingerprint"> = {
    version: 1,
    kind: "external",
    lane: quote.lane,
    providerId: quote.providerId,
    solverId: quote.solverId,
    upstreamQuoteId: quote.upstreamQuoteId,
    quoteResponse: quote.quoteResponse,
    signableHash: hash,
    ...(signIntent ? { signIntent } : {}),
    ...(sourceAccount ? { sourceAccount } : {}),
    recipient: route.recipient,
    source: legOf(route.source, quote.inputAmount),
    destination: legOf(route.destination, quote.outputAmount),
    ...(quote.deposit ? { deposit: quote.deposit } : {}),
  };
  return { winner, template: { ...unsigned, fingerprint: openFlowTemplateFingerprint(unsigned) } };
}

/** A vetted external answer as a candidate of the round. */
export function externalCandidate(
  quote: VettedExternalQuote,
  route: EvmQuoteRoute,
  openFlowMinValidityMs: number,
): QuoteCandidate {
  return {
    providerId: quote.providerId,
    solverId: quote.solverId,
    offerProvider: quote.offerProvider,
    lane: quote.lane,
    executionClass: quote.executionClass,
    upstreamQuoteId: quote.upstreamQuoteId,
    inputAmount: quote.inputAmount,
    outputAmount: quote.outputAmount,
    etaSeconds: quote.etaSeconds,
    validUntilMs: quote.validUntilMs,
    registrableForMs: undefined,
    ...(laneTable[quote.lane].validity === "open-flow-window"
      ? { minValidityMs: openFlowMinValidityMs }
      : {}),
    onchainOrderId: undefined,
    disclose: (identity) => {
      const { winner, template } = discloseExternalWinner(quote, route, identity);
      return { winner, template: template as unknown as Record<string, unknown> };
    },
  };
}
