import type { DevnetManifest } from "@hub/chain";
import type { CatalogSolanaChain } from "@hub/contract";
import type { ReconcilerChainConfig } from "./create-reconciler.js";
import type { SolanaReconcilerChainConfig } from "./index-solana-chain.js";

/** The reconciler's chain list for the devnet: its escrow, output settler and bridge, from the deployment block. */
export function reconcilerChainsFromManifest(
  manifest: Pick<DevnetManifest, "chains">,
): ReconcilerChainConfig[] {
  return manifest.chains.map((chain) => ({
    chainDomain: chain.chainDomain,
    chainId: chain.chainId,
    rpcUrl: chain.rpcUrl,
    inputSettlers: [chain.contracts.inputSettlerEscrow],
    outputSettler: chain.contracts.outputSettler,
    bridges: [chain.contracts.bridge],
    startBlock: chain.deployBlock,
  }));
}

/** The devnet's Solana chain for the reconciler, if it runs one: the escrow settler is also its output settler. */
export function solanaReconcilerChainsFromManifest(
  manifest: Pick<DevnetManifest, "solana">,
): SolanaReconcilerChainConfig[] {
  const solana = manifest.solana;
  if (!solana) return [];
  return [
    {
      chainDomain: solana.chainDomain,
      genesisHash: solana.genesisHash,
      rpcUrl: solana.rpcUrl,
      escrow: { settler: solana.escrow.settler.address, vaults: solana.escrow.vaults },
      outputSettler: solana.escrow.settler.address,
    },
  ];
}

/** A catalog Solana chain for the reconciler, read at rpcUrl. */
export function solanaReconcilerChainFromCatalog(
  chain: CatalogSolanaChain,
  rpcUrl: string,
): SolanaReconcilerChainConfig {
  return {
    chainDomain: chain.chainDomain,
    genesisHash: chain.genesisHash,
    rpcUrl,
    escrow: { settler: chain.escrow.settler, vaults: chain.escrow.vaults },
    outputSettler: chain.outputSettler,
  };
}
