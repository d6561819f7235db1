import type { DevnetManifest } from "@hub/chain";
import type { CatalogChain } from "@hub/contract";
import { defaultEvmFinality, type EvmFinality } from "../chains/evm/evm-finality.js";
import type { ReconcilerChainConfig } from "./create-reconciler.js";

/** A chain's RPC URLs in preference order: the first is rpcUrl, the whole list rpcUrls. */
function rpcUrlsOf(rpcUrls: string | readonly string[]): { rpcUrl: string; rpcUrls: readonly string[] } {
  const list = typeof rpcUrls === "string" ? [rpcUrls] : rpcUrls;
  const first = list[0];
  if (first === undefined) throw new Error("a chain needs at least one RPC URL");
  return { rpcUrl: first, rpcUrls: list };
}

/**
 * The reconciler's chain list for the devnet: its escrow, output settler and bridge, from the deployment
 * block. options.rpcUrls reads a chain through other URLs than the devnet's own (say a fault proxy).
 */
export function reconcilerChainsFromManifest(
  manifest: Pick<DevnetManifest, "chains">,
  options: { finality?: EvmFinality; rpcUrls?: Readonly<Record<string, readonly string[]>> } = {},
): ReconcilerChainConfig[] {
  return manifest.chains.map((chain) => ({
    ...(options.finality ? { finality: options.finality } : {}),
    chainDomain: chain.chainDomain,
    chainId: chain.chainId,
    ...(options.rpcUrls?.[chain.chainDomain]?.length
      ? rpcUrlsOf(options.rpcUrls[chain.chainDomain] as readonly string[])
      : { rpcUrl: chain.rpcUrl }),
    inputSettlers: [chain.contracts.inputSettlerEscrow],
    outputSettler: chain.contracts.outputSettler,
    bridges: [chain.contracts.bridge],
    startBlock: chain.deployBlock,
  }));
}

/**
 * A catalog EVM chain for the reconciler, read at rpcUrls (one URL, or several in preference order);
 * without a finality setting: the `finalized` tag.
 */
export function reconcilerChainFromCatalog(
  chain: CatalogChain,
  rpcUrls: string | readonly string[],
): ReconcilerChainConfig {
  return {
    chainDomain: chain.chainDomain,
    chainId: chain.chainId,
    ...rpcUrlsOf(rpcUrls),
    inputSettlers: [chain.inputSettlers.escrow],
    outputSettler: chain.outputSettler,
    ...(chain.bridge ? { bridges: [chain.bridge] } : {}),
    startBlock: chain.deployBlock ?? 0,
    finality: chain.finality ?? defaultEvmFinality,
  };
}
