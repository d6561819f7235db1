import { encodeSolanaInteropAddress } from "@hub/chain";
import { laneTable, type OifLane } from "../../lanes/lane-table.js";
import { encodeInteropAddress } from "../../upstream/interop-address.js";
import type { OifQuoteRequest } from "../../upstream/oif-quote-request.js";
import type { EvmRouteEnd, QuoteRoute, SolanaRouteEnd } from "../resolve-quote-route.js";

/** The ERC-7930 interop address of an account on a route's end, and of the end's token (or mint). */
function interop(end: EvmRouteEnd | SolanaRouteEnd, account: string): { account: string; asset: string } {
  if (end.family === "solana") {
    return {
      account: encodeSolanaInteropAddress(end.chain.genesisHash, account),
      asset: encodeSolanaInteropAddress(end.chain.genesisHash, end.mint),
    };
  }
  return {
    account: encodeInteropAddress(end.chain.chainId, account),
    asset: encodeInteropAddress(end.chain.chainId, end.token),
  };
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
 * Solana accounts and mints are Solana interop addresses (docs/decisions/solana-lane.md).
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
