import { oifFormOf, type RouteEnd } from "../../chains/chain-families.js";
import { laneTable, type OifLane } from "../../lanes/lane-table.js";
import type { OifQuoteRequest } from "./oif-quote-request.js";
import type { QuoteRoute } from "../../quotes/resolve-quote-route.js";

/** The ERC-7930 interop address of an account on a route's end, and of the end's asset, in its family's form. */
function interop(end: RouteEnd, account: string): { account: string; asset: string } {
  return oifFormOf(end).interop(end, account);
}

/** The interop addresses a route's requests name: the paying account and source asset, the receiver and output asset. */
export interface OifQuoteAddresses {
  source: { account: string; asset: string };
  destination: { account: string; asset: string };
}

/** A route's interop addresses, the same for every lane and provider a round asks. */
export function oifQuoteAddresses(route: QuoteRoute): OifQuoteAddresses {
  return {
    source: interop(route.source, route.user),
    destination: interop(route.destination, route.recipient),
  };
}

/**
 * The aggregator request for one lane of a route. The aggregator is told to answer within the
 * provider's own timeout (less a margin for the way back), so a slow solver costs its quote, not the call.
 */
export function buildOifQuoteRequest(
  route: QuoteRoute,
  lane: OifLane,
  options: { providerTimeoutMs: number; solverId?: string | undefined },
  { source, destination }: OifQuoteAddresses = oifQuoteAddresses(route),
): OifQuoteRequest {
  const exactInput = route.swapType === "exact-input";
  const upstreamTimeoutMs = Math.min(30_000, Math.max(100, options.providerTimeoutMs - 250));
  return {
    user: source.account,
    intent: {
      intentType: "oif-swap",
      inputs: [
        {
          user: source.account,
          asset: source.asset,
          ...(exactInput ? { amount: route.amount.toString() } : {}),
        },
      ],
      outputs: [
        {
          receiver: destination.account,
          asset: destination.asset,
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
