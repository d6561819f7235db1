import {
  type Catalog,
  type CatalogSolanaAsset,
  type CatalogSolanaChain,
  HubError,
  isSolanaAddress,
} from "@hub/contract";
import type { EvmOifLane } from "../lanes/lane-table.js";
import { EVM_ADDRESS, type EvmRouteEnd, evmSignatureLanes, resolveEvmEnd } from "./evm-route-end.js";
import {
  noRoute,
  type QuoteRouteRequest,
  type RouteTerms,
  sourceAccountRequired,
} from "./quote-route-request.js";

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

export function isSolanaKey(key: string): boolean {
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

/** Spec common rule 9: a Solana account is checked at validation; held again here with the bounded decoder. */
function solanaAccount(value: string, field: "recipient" | "sourceAccount"): string {
  if (!isSolanaAddress(value)) {
    throw new HubError("EIN0001", { reference: field, message: `${field}: not a base58 Solana public key.` });
  }
  return value;
}

/** A Solana source: only oif-escrow-nonevm, to an EVM destination, paid by sourceAccount (required). */
export function resolveSolanaSource(catalog: Catalog, request: QuoteRouteRequest): SolanaToEvmQuoteRoute {
  const solana = resolveSolanaEnd(catalog, request.sourceAsset, "sourceAsset");
  if (request.sourceAccount === undefined) {
    throw sourceAccountRequired(
      "sourceAccount is required for a Solana source: a quote without it cannot compile a non-EVM leg.",
    );
  }
  if (isSolanaKey(request.destinationAsset)) {
    throw noRoute("destinationAsset: Solana to Solana takes no lane; the destination must be an EVM chain.");
  }
  const destination = resolveEvmEnd(catalog, request.destinationAsset, "destinationAsset");
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
export function resolveSolanaDestination(
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
