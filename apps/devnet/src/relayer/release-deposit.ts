import { bridgeAbi } from "@hub/chain";
import { zeroAddress } from "viem";
import type { RelayedDeposit } from "./relayed-deposit.js";
import type { RelayerState } from "./relayer-state.js";

/** Releases a deposit on its destination's bridge, unless the bridge has released it already. */
export async function releaseDeposit(
  { clients, manifest, log }: RelayerState,
  entry: RelayedDeposit,
): Promise<void> {
  const destination = clients.get(entry.destinationChainId);
  const bridge = destination.chain.contracts.bridge;
  const already = await destination.publicClient.readContract({
    address: bridge,
    abi: bridgeAbi,
    functionName: "released",
    args: [entry.depositId],
  });
  if (already) {
    entry.state = "released";
    return;
  }
  const hash = await destination.wallet(manifest.relayer).writeContract({
    address: bridge,
    abi: bridgeAbi,
    functionName: "release",
    args: [
      entry.depositId,
      entry.destinationToken ?? zeroAddress,
      entry.recipient,
      BigInt(entry.releaseAmount),
    ],
  });
  const receipt = await destination.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== "success") throw new Error(`release of ${entry.depositId} reverted in ${hash}`);
  entry.state = "released";
  entry.releaseTxHash = hash;
  log.info({ depositId: entry.depositId, releaseTxHash: hash }, "deposit released");
}
