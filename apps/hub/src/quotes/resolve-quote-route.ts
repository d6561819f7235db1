import { type Catalog, type CatalogAsset, type CatalogChain, HubError } from "@hub/contract";
import type { QuoteLane } from "./quote-lanes.js";

/** One side of a route: the catalog chain and the declared asset on it. */
export interface RouteEnd {
  chain: CatalogChain;
  asset: CatalogAsset;
  /** The token contract, lowercase; the zero address for the native coin. */
  token: `0x${string}`;
}

/** A quote request resolved against the catalog: what every provider is asked and every answer is held to. */
export interface QuoteRoute {
  source: RouteEnd;
  destination: RouteEnd;
  /** The lanes this source can take, best first when all else is equal. */
  lanes: QuoteLane[];
  amount: bigint;
  swapType: "exact-input" | "exact-output";
  /** Lowercase 0x addresses. */
  recipient: `0x${string}`;
  /** The paying account: sourceAccount, or the recipient when none was sent. */
  user: `0x${string}`;
  /** Whether the client sent sourceAccount. */
  sourceAccountSent: boolean;
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

function noRoute(message: string): HubError {
  return new HubError("EIN0008", { message });
}

function resolveEnd(catalog: Catalog, key: string, field: string): RouteEnd {
  const chainDomain = key.slice(0, key.indexOf("/"));
  const chain = catalog.families.evm.find((c) => c.chainDomain === chainDomain);
  if (!chain) throw noRoute(`${field}: ${chainDomain} is not a chain of the catalog.`);
  const asset =
    chain.assets.find((a) => a.key === key) ??
    (chain.nativeKey === key
      ? { key, symbol: chain.native.symbol, decimals: chain.native.decimals, authorizations: [] }
      : undefined);
  if (!asset) throw noRoute(`${field}: ${key} is not a declared asset of ${chainDomain}.`);
  return { chain, asset, token: (asset.address ?? ZERO_ADDRESS) as `0x${string}` };
}

/**
 * Resolves a validated quote request against the catalog, in this order: the source asset (its chain,
 * then the asset), the destination asset (chain, then asset), the lanes the source can take, then the
 * recipient and the paying account. The first failure is EIN0008 (no viable route).
 */
export function resolveQuoteRoute(catalog: Catalog, request: QuoteRouteRequest): QuoteRoute {
  const source = resolveEnd(catalog, request.sourceAsset, "sourceAsset");
  const destination = resolveEnd(catalog, request.destinationAsset, "destinationAsset");
  if (source.asset.address === undefined) {
    throw noRoute("sourceAsset: the native coin takes no gasless lane; use a declared token.");
  }
  const lanes: QuoteLane[] = [];
  // EIP-3009 first: it needs no Permit2 approval, so it wins a tie.
  if (source.asset.authorizations.includes("eip3009")) lanes.push("aggregator-gasless");
  lanes.push("oif-escrow-gasless");
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
  };
}
