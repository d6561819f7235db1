import type { Catalog, CatalogAsset, CatalogChain } from "@hub/contract";
import { type EvmOifLane, laneTable, signatureOifLanes } from "../lanes/lane-table.js";
import { noRoute } from "./quote-route-request.js";

/** One side of a route on an EVM chain: the catalog chain and the asset on it. */
export interface EvmRouteEnd {
  family: "evm";
  chain: CatalogChain;
  /**
   * The catalog's asset. For the undeclared token of oif-swap-token (declared false) a stand-in that
   * carries only its key and address: symbol empty, decimals 0 (unknown to the hub).
   */
  asset: CatalogAsset;
  /** The token contract, lowercase; the zero address for the native coin. */
  token: `0x${string}`;
  /** Whether the catalog declares the asset (false only for the undeclared source of oif-swap-token). */
  declared: boolean;
}

/**
 * A source the escrow cannot take directly, opened through the chain's user proxy. wrap-native asks
 * the upstream for the wrapped native token; swap-token for the declared token the chain's swap router
 * swaps into, known only once the router is read at quote time (priceProxyRoute).
 */
export type ProxySource =
  | { lane: "oif-wrap-native"; userProxy: `0x${string}`; escrowInput: EvmRouteEnd }
  | { lane: "oif-swap-token"; userProxy: `0x${string}`; swapRouter: `0x${string}` };

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
export const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** An ERC-20 key as the catalog writes them (address lowercase); its chain is checked apart. */
const ERC20_KEY = /^eip155:[0-9]+\/erc20:(0x[0-9a-f]{40})$/;

function chainOf(catalog: Catalog, key: string, field: string): CatalogChain {
  const chainDomain = key.slice(0, key.indexOf("/"));
  const chain = catalog.families.evm.find((c) => c.chainDomain === chainDomain);
  if (!chain) throw noRoute(`${field}: ${chainDomain} is not a chain of the catalog.`);
  return chain;
}

function declaredEnd(chain: CatalogChain, key: string): EvmRouteEnd | undefined {
  const asset =
    chain.assets.find((a) => a.key === key) ??
    (chain.nativeKey === key
      ? { key, symbol: chain.native.symbol, decimals: chain.native.decimals, authorizations: [] }
      : undefined);
  if (!asset) return undefined;
  return {
    family: "evm",
    chain,
    asset,
    token: (asset.address ?? ZERO_ADDRESS) as `0x${string}`,
    declared: true,
  };
}

/** A declared asset of an EVM chain of the catalog. */
export function resolveEvmEnd(catalog: Catalog, key: string, field: string): EvmRouteEnd {
  const chain = chainOf(catalog, key, field);
  const end = declaredEnd(chain, key);
  if (!end) throw noRoute(`${field}: ${key} is not a declared asset of ${chain.chainDomain}.`);
  return end;
}

/** The source: a declared asset, or an undeclared ERC-20 on a chain whose swap router may take it. */
export function resolveEvmSource(catalog: Catalog, key: string): EvmRouteEnd {
  const chain = chainOf(catalog, key, "sourceAsset");
  const end = declaredEnd(chain, key);
  if (end) return end;
  const token = ERC20_KEY.exec(key)?.[1] as `0x${string}` | undefined;
  if (token === undefined) {
    throw noRoute(`sourceAsset: ${key} is not a declared asset of ${chain.chainDomain}.`);
  }
  if (chain.swapRouter === undefined || chain.userProxy === undefined) {
    throw noRoute(
      `sourceAsset: ${key} is not a declared asset of ${chain.chainDomain}, which has no swap router and user proxy to take an undeclared token.`,
    );
  }
  return {
    family: "evm",
    chain,
    asset: { key, symbol: "", decimals: 0, address: token, authorizations: [] },
    token,
    declared: false,
  };
}

/** The proxy that opens a native-coin or undeclared-token source, or the refusal saying why none can. */
export function proxyFor(source: EvmRouteEnd): ProxySource | undefined {
  const { chain } = source;
  if (!source.declared) {
    return {
      lane: "oif-swap-token",
      userProxy: chain.userProxy as `0x${string}`,
      swapRouter: chain.swapRouter as `0x${string}`,
    };
  }
  if (source.asset.address !== undefined) return undefined;
  const wrapped = chain.wrappedKey === undefined ? undefined : declaredEnd(chain, chain.wrappedKey);
  if (chain.userProxy === undefined || wrapped === undefined || wrapped.asset.address === undefined) {
    throw noRoute(
      `sourceAsset: the native coin takes no gasless lane, and ${chain.chainDomain} has no user proxy and declared wrapped token (userProxy, wrappedKey) to wrap it.`,
    );
  }
  return { lane: "oif-wrap-native", userProxy: chain.userProxy as `0x${string}`, escrowInput: wrapped };
}

/** The EVM signature lanes of a declared token: EIP-3009 only for a token that declares the authorization. */
export function evmSignatureLanes(source: EvmRouteEnd): EvmOifLane[] {
  return signatureOifLanes.filter(
    (lane) => laneTable[lane].oif.scheme !== "eip3009" || source.asset.authorizations.includes("eip3009"),
  );
}
