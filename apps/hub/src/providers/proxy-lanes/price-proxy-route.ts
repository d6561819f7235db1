import { HubError } from "@hub/contract";
import type { ProxyLane } from "../../lanes/lane-table.js";
import type { EvmQuoteRoute, EvmRouteEnd } from "../../quotes/resolve-quote-route.js";
import type { SwapRouterReader, SwapRouterRef } from "./swap-router-reader.js";

/** What the user pays on oif-swap-token, base units of the undeclared token. */
export interface SwapCost {
  /** The swap's nominal input: the requested amount on exact-input, amountMax on exact-output. */
  amountIn: bigint;
  /** What the proxy pulls and swaps, all of it: the real cost (never above amountIn). */
  amountMax: bigint;
}

/** The swap of an oif-swap-token route: the router's pool and the price of an escrow input. */
export interface ProxySwap {
  ref: SwapRouterRef;
  tokenIn: `0x${string}`;
  tokenOut: `0x${string}`;
  /** What the user pays for an order whose escrow input is escrowAmount of tokenOut. */
  costOf(escrowAmount: bigint): Promise<SwapCost>;
}

/** A proxy-lane route made ready for the OIF upstream. */
export interface ProxyLeg {
  lane: ProxyLane;
  userProxy: `0x${string}`;
  /**
   * The route as the upstream is asked (oif-escrow-v0) and its answers are vetted: the escrow's declared
   * input (the wrapped native token, or the token the router swaps into) as the source.
   */
  upstreamRoute: EvmQuoteRoute;
  /** oif-swap-token only. */
  swap?: ProxySwap;
}

function noRoute(message: string): HubError {
  return new HubError("EIN0008", { message });
}

function upstreamRouteOf(route: EvmQuoteRoute, lane: ProxyLane, escrowInput: EvmRouteEnd, amount: bigint) {
  const { proxy: _proxy, ...rest } = route;
  return { ...rest, source: escrowInput, lanes: [lane], amount };
}

/**
 * Prepares a proxy-lane route. oif-wrap-native: the upstream is asked for the wrapped native token,
 * same amount. oif-swap-token: reads the chain's swap router (its pool must take the source token and
 * swap into a declared token); on exact-input the upstream is asked for quoteExactInput(source ->
 * declared, amount) of the declared token, and the user pays amountMax = quoteExactOutput of that
 * (at most the amount); on exact-output the upstream is asked for the output, and each answer's
 * escrow input is priced with quoteExactOutput.
 */
export async function priceProxyRoute(route: EvmQuoteRoute, reader: SwapRouterReader): Promise<ProxyLeg> {
  const proxy = route.proxy;
  if (!proxy) throw new Error("priceProxyRoute takes a proxy-lane route");
  if (proxy.lane === "oif-wrap-native") {
    return {
      lane: proxy.lane,
      userProxy: proxy.userProxy,
      upstreamRoute: upstreamRouteOf(route, proxy.lane, proxy.escrowInput, route.amount),
    };
  }

  const { chain } = route.source;
  const ref = { chainId: chain.chainId, router: proxy.swapRouter };
  const pool = await reader.pool(ref);
  if (pool.tokenIn !== route.source.token) {
    throw noRoute(
      `sourceAsset: the swap router of ${chain.chainDomain} does not take ${route.source.asset.key}; it takes only eip155:${chain.chainId}/erc20:${pool.tokenIn}.`,
    );
  }
  const declared = chain.assets.find((asset) => asset.address === pool.tokenOut);
  if (!declared) {
    throw noRoute(
      `sourceAsset: the swap router of ${chain.chainDomain} swaps into ${pool.tokenOut}, which the catalog does not declare.`,
    );
  }
  const escrowInput: EvmRouteEnd = {
    family: "evm",
    chain,
    asset: declared,
    token: pool.tokenOut,
    declared: true,
  };
  const costs = new Map<bigint, Promise<bigint>>();
  const amountMaxFor = (escrowAmount: bigint) => {
    let cost = costs.get(escrowAmount);
    if (!cost) {
      cost = reader.quoteExactOutput(ref, pool.tokenIn, pool.tokenOut, escrowAmount);
      costs.set(escrowAmount, cost);
    }
    return cost;
  };
  const swap = (exactInput: boolean): ProxySwap => ({
    ref,
    tokenIn: pool.tokenIn,
    tokenOut: pool.tokenOut,
    async costOf(escrowAmount) {
      const amountMax = await amountMaxFor(escrowAmount);
      return { amountIn: exactInput ? route.amount : amountMax, amountMax };
    },
  });

  if (route.swapType === "exact-output") {
    return {
      lane: proxy.lane,
      userProxy: proxy.userProxy,
      upstreamRoute: upstreamRouteOf(route, proxy.lane, escrowInput, route.amount),
      swap: swap(false),
    };
  }
  const escrowAmount = await reader.quoteExactInput(ref, pool.tokenIn, pool.tokenOut, route.amount);
  if (escrowAmount === 0n) {
    throw noRoute(`amount: ${route.amount} of ${route.source.asset.key} swaps into 0 ${declared.symbol}.`);
  }
  const amountMax = await amountMaxFor(escrowAmount);
  // A router whose two quotes disagree would make the user pay more than asked.
  if (amountMax > route.amount || amountMax === 0n) {
    throw noRoute(
      `sourceAsset: the swap router of ${chain.chainDomain} prices ${escrowAmount} ${declared.symbol} at ${amountMax}, more than the amount ${route.amount}.`,
    );
  }
  return {
    lane: proxy.lane,
    userProxy: proxy.userProxy,
    upstreamRoute: upstreamRouteOf(route, proxy.lane, escrowInput, escrowAmount),
    swap: swap(true),
  };
}
