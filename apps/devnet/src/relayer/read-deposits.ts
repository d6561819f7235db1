import { bridgeOutputAmount } from "../bridge-output-amount.js";
import { destinationToken } from "./destination-token.js";
import type { RelayedDeposit } from "./relayed-deposit.js";
import type { RelayerState } from "./relayer-state.js";

/** Adds the deposits every chain's bridge shows since the last look; one without a route is unroutable. */
export async function readDeposits(state: RelayerState): Promise<void> {
  const { cursors, deposits, clients, manifest, log } = state;
  for (const [chainId, cursor] of cursors) {
    for (const event of await cursor.next()) {
      const { depositId, depositor, token, amount, destinationChainId, recipient, ref } = event.args;
      if (deposits.has(depositId)) continue;
      const destination = clients.find(Number(destinationChainId));
      const mapped = destination
        ? destinationToken(manifest, chainId, token, destination.chain.chainId)
        : undefined;
      const entry: RelayedDeposit = {
        depositId,
        ref,
        sourceChainId: chainId,
        destinationChainId: Number(destinationChainId),
        depositor,
        sourceToken: token,
        amount: amount.toString(),
        releaseAmount: bridgeOutputAmount(amount, state.feeBps).toString(),
        recipient,
        depositTxHash: event.transactionHash,
        state: "pending",
      };
      if (!destination) {
        entry.state = "unroutable";
        entry.reason = `destination chain ${destinationChainId} is not a devnet chain`;
      } else if (mapped === undefined) {
        entry.state = "unroutable";
        entry.reason = `token ${token} has no counterpart on chain ${destinationChainId}`;
      } else {
        entry.destinationToken = mapped;
      }
      if (entry.state === "unroutable")
        log.warn({ depositId, reason: entry.reason }, "deposit cannot be released");
      deposits.set(depositId, entry);
    }
  }
}
