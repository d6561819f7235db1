import { mandateOutputToJson } from "@hub/chain";
import { type QuoteWinner, signableHash } from "@hub/contract";
import { OIF_ESCROW_EXECUTION_CLASS } from "../../../lanes/lane-table.js";
import type { WinnerIdentity } from "../../../quotes/quote-candidate.js";
import { committedTerms, quoteTerms } from "../../../quotes/quote-terms.js";
import type { QuoteRoute } from "../../../quotes/resolve-quote-route.js";
import type { SolanaToEvmQuoteRoute } from "../../../quotes/solana-quote-route.js";
import type { SolanaQuoteTemplate } from "../../../quotes/solana-quote-template.js";
import type { VettedQuoteCommon } from "../vet-oif-quote.js";
import type { VettedSolanaOrder } from "./vet-solana-order.js";

/** An oif-svm-escrow-v0 quote that passed every check but the blockhash's (asked of the chain apart). */
export interface VettedSolanaOifQuote extends VettedQuoteCommon {
  lane: "oif-escrow-nonevm";
  solana: VettedSolanaOrder;
  /** The escrow order id, recomputed. */
  onchainOrderId: `0x${string}`;
}

/**
 * The oif-escrow-nonevm winner: signPayload `{transactionMessage, digest, sender, feePayer}` as vetted,
 * the escrow order id disclosed (known at quote time, like the EIP-3009 lane's), and the terms.
 */
function discloseSolanaWinner(
  quote: VettedSolanaOifQuote,
  route: SolanaToEvmQuoteRoute,
  identity: WinnerIdentity,
): QuoteWinner {
  const terms = quoteTerms({ ...quote, executionClass: OIF_ESCROW_EXECUTION_CLASS }, route);
  const { signPayload, fillDeadline, escrowOrder } = quote.solana;
  const signablePayload = {
    kind: quote.lane,
    signPayload,
    terms: committedTerms(terms, route, { fillDeadline, expires: escrowOrder.expires }, quote.onchainOrderId),
  };
  return {
    quoteRequestId: identity.quoteRequestId,
    quoteId: identity.quoteId,
    expiresAt: new Date(identity.expiresAtMs).toISOString(),
    ...terms,
    recipient: route.recipient,
    sourceAccount: route.user,
    onchainOrderId: quote.onchainOrderId,
    disclosure: { signablePayload, signableHash: signableHash(signablePayload) },
    signPayload,
  };
}

function solanaQuoteTemplate(quote: VettedSolanaOifQuote, route: SolanaToEvmQuoteRoute): SolanaQuoteTemplate {
  const { signPayload, escrowOrder, fillDeadline, output, recentBlockhash } = quote.solana;
  return {
    version: 1,
    providerId: quote.providerId,
    solverId: quote.solverId,
    lane: "oif-escrow-nonevm",
    orderType: "oif-svm-escrow-v0",
    signatureScheme: "ed25519",
    quoteResponse: quote.quoteResponse,
    onchainOrderId: quote.onchainOrderId,
    onchainOrderIdSource: "verified",
    user: route.user,
    recipient: route.recipient,
    validUntil: quote.validUntil,
    solana: {
      chainDomain: route.source.chain.chainDomain,
      ...signPayload,
      recentBlockhash,
      vault: route.source.vault,
      escrowOrder: {
        user: escrowOrder.user,
        mint: escrowOrder.mint,
        amount: escrowOrder.amount.toString(),
        expires: escrowOrder.expires,
        nonce: escrowOrder.nonce.toString(),
        outputHash: escrowOrder.outputHash,
        orderId: quote.onchainOrderId,
      },
      fillDeadline,
      output: mandateOutputToJson(output),
    },
  };
}

/** What a Solana-source winner discloses and stores; asked only on the route it was vetted for. */
export function discloseSolanaOifQuote(
  quote: VettedSolanaOifQuote,
  route: QuoteRoute,
  identity: WinnerIdentity,
): { winner: QuoteWinner; template: Record<string, unknown> } {
  if (route.direction !== "solana-to-evm") throw new Error("a Solana quote on an EVM-source route");
  return {
    winner: discloseSolanaWinner(quote, route, identity),
    template: solanaQuoteTemplate(quote, route) as unknown as Record<string, unknown>,
  };
}
