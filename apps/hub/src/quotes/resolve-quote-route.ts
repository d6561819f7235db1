import { type Catalog, type CatalogAsset, type CatalogChain, HubError } from "@hub/contract";
import { laneTable, type OifLane, signatureOifLanes } from "../lanes/lane-table.js";

/** One side of a route: the catalog chain and the asset on it. */
export interface RouteEnd {
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
  | { lane: "oif-wrap-native"; userProxy: `0x${string}`; escrowInput: RouteEnd }
  | { lane: "oif-swap-token"; userProxy: `0x${string}`; swapRouter: `0x${string}` };

/** A quote request resolved against the catalog: what every provider is asked and every answer is held to. */
export interface QuoteRoute {
  /** The request's sourceAsset: what the user pays (on a proxy lane, not what the escrow takes). */
  source: RouteEnd;
  destination: RouteEnd;
  /** The lanes this source can take, best first when all else is equal. */
  lanes: OifLane[];
  /** The request's amount: of the source on exact-input, of the destination on exact-output. */
  amount: bigint;
  swapType: "exact-input" | "exact-output";
  /** Lowercase 0x addresses. */
  recipient: `0x${string}`;
  /** The paying account: sourceAccount, or the recipient when none was sent. */
  user: `0x${string}`;
  /** Whether the client sent sourceAccount. */
  sourceAccountSent: boolean;
  /** Set on the proxy lanes (native coin, undeclared token): how the source reaches the escrow. */
  proxy?: ProxySource;
}

export interface QuoteRouteRequest {
  sourceAsset: string;
  destinationAsset: string;
  amount: string;
  recipient: string;
  sourceAccount?: string | undefined;
  swapType: "exact-input" | "exact-output";
}

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** An ERC-20 key as the catalog writes them (address lowercase); its chain is checked apart. */
const ERC20_KEY = /^eip155:[0-9]+\/erc20:(0x[0-9a-f]{40})$/;

function noRoute(message: string): HubError {
  return new HubError("EIN0008", { message });
}

function chainOf(catalog: Catalog, key: string, field: string): CatalogChain {
  const chainDomain = key.slice(0, key.indexOf("/"));
  const chain = catalog.families.evm.find((c) => c.chainDomain === chainDomain);
  if (!chain) throw noRoute(`${field}: ${chainDomain} is not a chain of the catalog.`);
  return chain;
}

function declaredEnd(chain: CatalogChain, key: string): RouteEnd | undefined {
  const asset =
    chain.assets.find((a) => a.key === key) ??
    (chain.nativeKey === key
      ? { key, symbol: chain.native.symbol, decimals: chain.native.decimals, authorizations: [] }
      : undefined);
  if (!asset) return undefined;
  return { chain, asset, token: (asset.address ?? ZERO_ADDRESS) as `0x${string}`, declared: true };
}

function resolveEnd(catalog: Catalog, key: string, field: string): RouteEnd {
  const chain = chainOf(catalog, key, field);
  const end = declaredEnd(chain, key);
  if (!end) throw noRoute(`${field}: ${key} is not a declared asset of ${chain.chainDomain}.`);
  return end;
}

/** The source: a declared asset, or an undeclared ERC-20 on a chain whose swap router may take it. */
function resolveSource(catalog: Catalog, key: string): RouteEnd {
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
    chain,
    asset: { key, symbol: "", decimals: 0, address: token, authorizations: [] },
    token,
    declared: false,
  };
}

/** The proxy that opens a native-coin or undeclared-token source, or the refusal saying why none can. */
function proxyFor(source: RouteEnd): ProxySource | undefined {
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

/**
 * Resolves a validated quote request against the catalog, in this order: the source asset (its chain,
 * then the asset: declared, or undeclared on a chain with a swap router and user proxy), the
 * destination asset (chain, then asset), the lanes the source can take, then the recipient and the
 * paying account. The first failure is EIN0008 (no viable route). The native coin takes oif-wrap-native,
 * an undeclared token oif-swap-token; every other source the signature lanes.
 */
export function resolveQuoteRoute(catalog: Catalog, request: QuoteRouteRequest): QuoteRoute {
  const source = resolveSource(catalog, request.sourceAsset);
  const destination = resolveEnd(catalog, request.destinationAsset, "destinationAsset");
  const proxy = proxyFor(source);
  // An EIP-3009 lane only for a token that declares the authorization.
  const lanes: OifLane[] = proxy
    ? [proxy.lane]
    : signatureOifLanes.filter(
        (lane) => laneTable[lane].oif.scheme !== "eip3009" || source.asset.authorizations.includes("eip3009"),
      );
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
