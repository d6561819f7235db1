import {
  orderIdentifier,
  type StandardOrder,
  standardOrderToJson,
  swapAndOpenV2Calls,
  wrapAndOpenCall,
} from "@hub/chain";
import { type ExecutionTx, type QuoteWinner, signableHash } from "@hub/contract";
import { formatUnits } from "viem";
import { laneTable, OIF_ESCROW_EXECUTION_CLASS } from "../../lanes/lane-table.js";
import type { VettedEvmOifQuote } from "../oif-aggregator/vet-oif-quote.js";
import type { QuoteCandidate, WinnerIdentity } from "../../quotes/quote-candidate.js";
import type { QuoteTemplate } from "../../quotes/quote-template.js";
import { committedTerms, quoteTerms } from "../../quotes/quote-terms.js";
import type { EvmQuoteRoute } from "../../quotes/resolve-quote-route.js";
import type { ProxyLeg, SwapCost } from "./price-proxy-route.js";

/** The transactions of a proxy-lane winner, compiled by the hub, with integer chain ids. */
export function proxyExecutionTx(
  leg: ProxyLeg,
  route: EvmQuoteRoute,
  order: StandardOrder,
  onchainOrderId: `0x${string}`,
  cost: SwapCost | undefined,
): ExecutionTx {
  const chainId = route.source.chain.chainId;
  const escrowInput = leg.upstreamRoute.source;
  const escrowAmount = order.inputs[0]![1];
  if (leg.lane === "oif-wrap-native") {
    const call = wrapAndOpenCall({ userProxy: leg.userProxy, order });
    return {
      approvals: [],
      steps: [
        {
          chainId,
          to: call.to.toLowerCase(),
          data: call.data.toLowerCase(),
          value: call.value.toString(),
          description: `wrapAndOpen: wraps ${formatUnits(call.value, route.source.asset.decimals)} ${route.source.asset.symbol} into ${escrowInput.asset.symbol} and opens escrow order ${onchainOrderId} for ${order.user.toLowerCase()}.`,
        },
      ],
    };
  }
  if (!leg.swap || !cost) throw new Error("an oif-swap-token winner needs its swap and cost");
  const calls = swapAndOpenV2Calls({
    userProxy: leg.userProxy,
    tokenIn: leg.swap.tokenIn,
    amountMax: cost.amountMax,
    order,
  });
  return {
    approvals: [
      {
        chainId,
        token: leg.swap.tokenIn,
        spender: leg.userProxy,
        amount: cost.amountMax.toString(),
      },
    ],
    steps: [
      {
        chainId,
        to: calls.swapAndOpen.to.toLowerCase(),
        data: calls.swapAndOpen.data.toLowerCase(),
        value: "0",
        description: `swapAndOpenV2: pulls ${cost.amountMax} base units of ${leg.swap.tokenIn}, swaps them into at least ${formatUnits(escrowAmount, escrowInput.asset.decimals)} ${escrowInput.asset.symbol} (any surplus to ${order.user.toLowerCase()}) and opens escrow order ${onchainOrderId}.`,
      },
    ],
  };
}

/**
 * A vetted upstream answer on a proxy lane as a candidate of the round. The user pays the request's
 * source (the native coin, or the undeclared token: amountMax); the escrow takes the declared input of
 * the upstream's order. The on-chain id is recomputed (the order is fixed at quote time), and the
 * winner stays registrable for holdMs after issue.
 */
export function proxyCandidate(
  quote: VettedEvmOifQuote,
  route: EvmQuoteRoute,
  leg: ProxyLeg,
  cost: SwapCost | undefined,
  holdMs: number,
): QuoteCandidate {
  const source = route.source.chain;
  const onchainOrderId = orderIdentifier(
    quote.order,
    source.chainId,
    source.inputSettlers.escrow as `0x${string}`,
  ).toLowerCase() as `0x${string}`;
  const inputAmount = cost ? cost.amountMax : quote.inputAmount;
  const candidate = {
    providerId: quote.providerId,
    solverId: quote.solverId,
    offerProvider: quote.offerProvider,
    lane: leg.lane,
    executionClass: OIF_ESCROW_EXECUTION_CLASS,
    upstreamQuoteId: quote.upstreamQuoteId,
    inputAmount,
    outputAmount: quote.outputAmount,
    etaSeconds: quote.etaSeconds,
    validUntilMs: quote.validUntil * 1000,
    registrableForMs: holdMs,
    onchainOrderId,
  };
  const executionTx = proxyExecutionTx(leg, route, quote.order, onchainOrderId, cost);
  const swapInput = cost && { amountIn: cost.amountIn.toString(), amountMax: cost.amountMax.toString() };

  function disclose(identity: WinnerIdentity): { winner: QuoteWinner; template: Record<string, unknown> } {
    const terms = quoteTerms(candidate, route);
    const signablePayload = {
      kind: leg.lane,
      executionTx,
      terms: {
        ...committedTerms(terms, route, quote.order, onchainOrderId),
        ...(swapInput ? { swapInput } : {}),
      },
    };
    const winner: QuoteWinner = {
      quoteRequestId: identity.quoteRequestId,
      quoteId: identity.quoteId,
      expiresAt: new Date(identity.expiresAtMs).toISOString(),
      ...terms,
      recipient: route.recipient,
      sourceAccount: route.user,
      onchainOrderId,
      disclosure: { signablePayload, signableHash: signableHash(signablePayload) },
      executionTx,
      ...(swapInput ? { swapInput } : {}),
    };
    const template: QuoteTemplate = {
      version: 1,
      providerId: quote.providerId,
      solverId: quote.solverId,
      lane: leg.lane,
      orderType: laneTable[leg.lane].oif.product,
      signatureScheme: "none",
      quoteResponse: quote.quoteResponse,
      standardOrder: standardOrderToJson(quote.order),
      onchainOrderId,
      onchainOrderIdSource: "verified",
      user: route.user,
      recipient: route.recipient,
      validUntil: quote.validUntil,
      proxy: {
        userProxy: leg.userProxy,
        executionTx,
        ...(leg.swap && swapInput ? { swap: { tokenIn: leg.swap.tokenIn, ...swapInput } } : {}),
      },
    };
    return { winner, template: template as unknown as Record<string, unknown> };
  }

  return { ...candidate, disclose };
}
