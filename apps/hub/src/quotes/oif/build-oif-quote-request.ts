import { laneTable, type OifLane } from "../../lanes/lane-table.js";
import { encodeInteropAddress } from "../../upstream/interop-address.js";
import type { OifQuoteRequest } from "../../upstream/oif-quote-request.js";
import type { QuoteRoute } from "../resolve-quote-route.js";

/**
 * The aggregator request for one lane of a route. The aggregator is told to answer within the
 * provider's own timeout (less a margin for the way back), so a slow solver costs its quote, not the call.
 */
export function buildOifQuoteRequest(
  route: QuoteRoute,
  lane: OifLane,
  options: { providerTimeoutMs: number; solverId?: string | undefined },
): OifQuoteRequest {
  const { source, destination } = route;
  const exactInput = route.swapType === "exact-input";
  const upstreamTimeoutMs = Math.min(30_000, Math.max(100, options.providerTimeoutMs - 250));
  return {
    user: encodeInteropAddress(source.chain.chainId, route.user),
    intent: {
      intentType: "oif-swap",
      inputs: [
        {
          user: encodeInteropAddress(source.chain.chainId, route.user),
          asset: encodeInteropAddress(source.chain.chainId, source.token),
          ...(exactInput ? { amount: route.amount.toString() } : {}),
        },
      ],
      outputs: [
        {
          receiver: encodeInteropAddress(destination.chain.chainId, route.recipient),
          asset: encodeInteropAddress(destination.chain.chainId, destination.token),
          ...(exactInput ? {} : { amount: route.amount.toString() }),
        },
      ],
      swapType: route.swapType,
      originSubmission: { mode: "user", schemes: [laneTable[lane].oif.scheme] },
    },
    supportedTypes: [laneTable[lane].oif.product],
    solverOptions: {
      timeout: upstreamTimeoutMs,
      solverTimeout: upstreamTimeoutMs,
      ...(options.solverId === undefined ? {} : { includeSolvers: [options.solverId] }),
    },
  };
}
