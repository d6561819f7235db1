import {
  type Catalog,
  type CatalogAsset,
  type CatalogChain,
  type CatalogSolanaAsset,
  type CatalogSolanaChain,
  HubError,
  isSolanaAddress,
} from "@hub/contract";
import { type EvmOifLane, laneTable, signatureOifLanes } from "../lanes/lane-table.js";

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

/** One side of a route on a Solana chain: an SPL token the catalog declares (native SOL never is one). */
export interface SolanaRouteEnd {
  family: "solana";
  chain: CatalogSolanaChain;
  asset: CatalogSolanaAsset;
  /** The token's mint, base58. */
  mint: string;
}

/** A Solana source: the catalog's escrow vault of its mint, where the deposit goes. */
export interface SolanaSourceEnd extends SolanaRouteEnd {
  vault: string;
}

/**
 * A source the escrow cannot take directly, opened through the chain's user proxy. wrap-native asks
 * the upstream for the wrapped native token; swap-token for the declared token the chain's swap router
 * swaps into, known only once the router is read at quote time (priceProxyRoute).
 */
export type ProxySource =
  | { lane: "oif-wrap-native"; userProxy: `0x${string}`; escrowInput: EvmRouteEnd }
  | { lane: "oif-swap-token"; userProxy: `0x${string}`; swapRouter: `0x${string}` };

/** What every route states whatever the chains: the amount and how it is read. */
interface RouteTerms {
  /** The request's amount: of the source on exact-input, of the destination on exact-output. */
  amount: bigint;
  swapType: "exact-input" | "exact-output";
  /** Whether the client sent sourceAccount. */
  sourceAccountSent: boolean;
}

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

/** An EVM source signed for (Permit2 or EIP-3009) whose single output is paid on a Solana chain. */
export interface EvmToSolanaQuoteRoute extends RouteTerms {
  direction: "evm-to-solana";
  source: EvmRouteEnd;
  destination: SolanaRouteEnd;
  lanes: EvmOifLane[];
  /** The recipient's Solana key, base58 (it owns the token account the fill pays). */
  recipient: string;
  /** sourceAccount, lowercase 0x: required, since a Solana recipient cannot pay on the EVM source. */
  user: `0x${string}`;
  proxy?: undefined;
}

/** A Solana source (oif-escrow-nonevm): the user signs a deposit into the catalog's vault, paid out on an EVM chain. */
export interface SolanaToEvmQuoteRoute extends RouteTerms {
  direction: "solana-to-evm";
  source: SolanaSourceEnd;
  destination: EvmRouteEnd;
  lanes: ["oif-escrow-nonevm"];
  /** Lowercase 0x. */
  recipient: `0x${string}`;
  /** sourceAccount, base58: the deposit's sender and the escrow order's user. */
  user: string;
  proxy?: undefined;
}

/** A quote request resolved against the catalog: what every provider is asked and every answer is held to. */
export type QuoteRoute = EvmQuoteRoute | EvmToSolanaQuoteRoute | SolanaToEvmQuoteRoute;

/** A route whose source is on an EVM chain (the EVM signature lanes and the proxy lanes). */
export type EvmSourceRoute = EvmQuoteRoute | EvmToSolanaQuoteRoute;

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

function isSolanaKey(key: string): boolean {
  return key.startsWith("solana:");
}

/** An SPL token the catalog declares on a Solana chain; native SOL takes no lane. */
function resolveSolanaEnd(catalog: Catalog, key: string, field: string): SolanaRouteEnd {
  const chainDomain = key.slice(0, key.indexOf("/"));
  const chain = catalog.families.solana.find((c) => c.chainDomain === chainDomain);
  if (!chain) throw noRoute(`${field}: ${chainDomain} is not a chain of the catalog.`);
  if (key === chain.nativeKey) {
    throw noRoute(`${field}: native SOL takes no lane; use an SPL token of ${chainDomain} (such as USDC).`);
  }
  const asset = chain.assets.find((a) => a.key === key);
  if (!asset) throw noRoute(`${field}: ${key} is not a declared asset of ${chainDomain}.`);
  return { family: "solana", chain, asset, mint: asset.mint };
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

function resolveEnd(catalog: Catalog, key: string, field: string): EvmRouteEnd {
  const chain = chainOf(catalog, key, field);
  const end = declaredEnd(chain, key);
  if (!end) throw noRoute(`${field}: ${key} is not a declared asset of ${chain.chainDomain}.`);
  return end;
}

/** The source: a declared asset, or an undeclared ERC-20 on a chain whose swap router may take it. */
function resolveSource(catalog: Catalog, key: string): EvmRouteEnd {
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
function proxyFor(source: EvmRouteEnd): ProxySource | undefined {
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

function sourceAccountRequired(message: string): HubError {
  return new HubError("EIN0001", { reference: "sourceAccount", message });
}

/** Spec common rule 9: a Solana account is checked at validation; held again here with the bounded decoder. */
function solanaAccount(value: string, field: "recipient" | "sourceAccount"): string {
  if (!isSolanaAddress(value)) {
    throw new HubError("EIN0001", { reference: field, message: `${field}: not a base58 Solana public key.` });
  }
  return value;
}

/** The EVM signature lanes of a declared token: EIP-3009 only for a token that declares the authorization. */
function evmSignatureLanes(source: EvmRouteEnd): EvmOifLane[] {
  return signatureOifLanes.filter(
    (lane) => laneTable[lane].oif.scheme !== "eip3009" || source.asset.authorizations.includes("eip3009"),
  );
}

/** A Solana source: only oif-escrow-nonevm, to an EVM destination, paid by sourceAccount (required). */
function resolveSolanaSource(catalog: Catalog, request: QuoteRouteRequest): SolanaToEvmQuoteRoute {
  const solana = resolveSolanaEnd(catalog, request.sourceAsset, "sourceAsset");
  if (request.sourceAccount === undefined) {
    throw sourceAccountRequired(
      "sourceAccount is required for a Solana source: a quote without it cannot compile a non-EVM leg.",
    );
  }
  if (isSolanaKey(request.destinationAsset)) {
    throw noRoute("destinationAsset: Solana to Solana takes no lane; the destination must be an EVM chain.");
  }
  const destination = resolveEnd(catalog, request.destinationAsset, "destinationAsset");
  const vault = solana.chain.escrow.vaults.find((v) => v.mint === solana.mint)?.vault;
  if (vault === undefined) {
    throw noRoute(`sourceAsset: the escrow of ${solana.chain.chainDomain} has no vault for ${solana.mint}.`);
  }
  if (!EVM_ADDRESS.test(request.recipient)) {
    throw noRoute("recipient: not an EVM address on the destination chain.");
  }
  return {
    direction: "solana-to-evm",
    source: { ...solana, vault },
    destination,
    lanes: ["oif-escrow-nonevm"],
    amount: BigInt(request.amount),
    swapType: request.swapType,
    recipient: request.recipient.toLowerCase() as `0x${string}`,
    user: solanaAccount(request.sourceAccount, "sourceAccount"),
    sourceAccountSent: true,
  };
}

/** An EVM source paid out on Solana: a declared token signed for, paid by sourceAccount (required). */
function resolveSolanaDestination(
  catalog: Catalog,
  request: QuoteRouteRequest,
  source: EvmRouteEnd,
): EvmToSolanaQuoteRoute {
  const destination = resolveSolanaEnd(catalog, request.destinationAsset, "destinationAsset");
  if (!source.declared || source.asset.address === undefined) {
    throw noRoute(
      "sourceAsset: a Solana destination takes only a declared token signed for (Permit2 or EIP-3009), not a proxy-lane source.",
    );
  }
  const recipient = solanaAccount(request.recipient, "recipient");
  if (request.sourceAccount === undefined) {
    throw sourceAccountRequired(
      "sourceAccount is required for a Solana destination: a Solana recipient cannot pay on the EVM source.",
    );
  }
  if (!EVM_ADDRESS.test(request.sourceAccount)) {
    throw noRoute("sourceAccount: not an EVM address on the source chain.");
  }
  return {
    direction: "evm-to-solana",
    source,
    destination,
    lanes: evmSignatureLanes(source),
    amount: BigInt(request.amount),
    swapType: request.swapType,
    recipient,
    user: request.sourceAccount.toLowerCase() as `0x${string}`,
    sourceAccountSent: true,
  };
}

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
  const source = resolveSource(catalog, request.sourceAsset);
  if (isSolanaKey(request.destinationAsset)) return resolveSolanaDestination(catalog, request, source);
  const destination = resolveEnd(catalog, request.destinationAsset, "destinationAsset");
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
