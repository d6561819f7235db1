import type { DevnetManifest } from "@hub/chain";
import type { ReconcilerChainConfig } from "./create-reconciler.js";

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
