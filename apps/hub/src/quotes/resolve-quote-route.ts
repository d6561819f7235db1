import type { Catalog } from "@hub/contract";
import type { EvmOifLane } from "../lanes/lane-table.js";
import {
  EVM_ADDRESS,
  type EvmRouteEnd,
  evmSignatureLanes,
  type ProxySource,
  proxyFor,
  resolveEvmEnd,
  resolveEvmSource,
} from "./evm-route-end.js";
import { noRoute, type QuoteRouteRequest, type RouteTerms } from "./quote-route-request.js";
import {
  type EvmToSolanaQuoteRoute,
  isSolanaKey,
  resolveSolanaDestination,
  resolveSolanaSource,
  type SolanaToEvmQuoteRoute,
} from "./solana-quote-route.js";

export type { EvmRouteEnd, ProxySource, QuoteRouteRequest };

/** A quote request resolved against the catalog, EVM to EVM: what every provider is asked and every answer is held to. */
export interface EvmQuoteRoute extends RouteTerms {
  direction: "evm";
  /** The request's sourceAsset: what the user pays (on a proxy lane, not what the escrow takes). */
  source: EvmRouteEnd;
  destination: EvmRouteEnd;
  /** The lanes this source can take, best first when all else is equal. */
  lanes: EvmOifLane[];
  /** Lowercase 0x addresses. */
  recipient: `0x${string}`;
  /** The paying account: sourceAccount, or the recipient when none was sent. */
  user: `0x${string}`;
  /** Set on the proxy lanes (native coin, undeclared token): how the source reaches the escrow. */
  proxy?: ProxySource;
}

/** A quote request resolved against the catalog: what every provider is asked and every answer is held to. */
export type QuoteRoute = EvmQuoteRoute | EvmToSolanaQuoteRoute | SolanaToEvmQuoteRoute;

/** A route whose source is on an EVM chain (the EVM signature lanes and the proxy lanes). */
export type EvmSourceRoute = EvmQuoteRoute | EvmToSolanaQuoteRoute;

/**
 * Resolves a validated quote request against the catalog, in this order: the source asset (its chain,
 * then the asset: declared, or undeclared on a chain with a swap router and user proxy), the
 * destination asset (chain, then asset), the lanes the source can take, then the recipient and the
 * paying account. The first failure is EIN0008 (no viable route). The native coin takes oif-wrap-native,
 * an undeclared token oif-swap-token; every other EVM source the signature lanes. A Solana source takes
 * oif-escrow-nonevm only and needs sourceAccount (EIN0001 `sourceAccount`), as does a Solana destination;
 * native SOL and Solana to Solana take no lane (EIN0008).
 */
export function resolveQuoteRoute(catalog: Catalog, request: QuoteRouteRequest): QuoteRoute {
  if (isSolanaKey(request.sourceAsset)) return resolveSolanaSource(catalog, request);
  const source = resolveEvmSource(catalog, request.sourceAsset);
  if (isSolanaKey(request.destinationAsset)) return resolveSolanaDestination(catalog, request, source);
  const destination = resolveEvmEnd(catalog, request.destinationAsset, "destinationAsset");
  const proxy = proxyFor(source);
  const lanes: EvmOifLane[] = proxy ? [proxy.lane] : evmSignatureLanes(source);
  // Spec common rule 9: EVM addresses are not checked at validation; a malformed one fails here.
  if (!EVM_ADDRESS.test(request.recipient)) {
    throw noRoute("recipient: not an EVM address on the destination chain.");
  }
  if (request.sourceAccount !== undefined && !EVM_ADDRESS.test(request.sourceAccount)) {
    throw noRoute("sourceAccount: not an EVM address on the source chain.");
  }
  const recipient = request.recipient.toLowerCase() as `0x${string}`;
  const user = (request.sourceAccount?.toLowerCase() ?? recipient) as `0x${string}`;
  return {
    direction: "evm",
    source,
    destination,
    lanes,
    amount: BigInt(request.amount),
    swapType: request.swapType,
    recipient,
    user,
    sourceAccountSent: request.sourceAccount !== undefined,
    ...(proxy ? { proxy } : {}),
  };
}

/** Whether the route's source is on an EVM chain. */
export function isEvmSourceRoute(route: QuoteRoute): route is EvmSourceRoute {
  return route.source.family === "evm";
}
