import type { DevnetManifest } from "@hub/chain";
import type { CatalogSolanaChain } from "@hub/contract";
import type { SolanaReconcilerChainConfig } from "./solana-reconciler-chain-config.js";

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
      // The stand-in confirms a transaction as it lands (the devnet catalog says the same).
      commitment: "confirmed",
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
    commitment: chain.commitment ?? "finalized",
  };
}
