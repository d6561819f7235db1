import { outputSettlerAbi } from "@hub/chain";
import { decodeEventLog, type Hex } from "viem";
import { type SolverChainClient, transactionReceipt } from "./solver-chain-clients.js";

export type EvmFillOutcome =
  | { state: "pending" }
  | { state: "landed"; fillTimestamp: number }
  | { state: "failed"; reason: string };

/**
 * Where the fill `fillTx` of `orderId` stands on its EVM destination: not mined yet, landed with the
 * timestamp of its OutputFilled event for the order, or failed (reverted, or no such event).
 */
export async function evmFillOutcome(
  chain: SolverChainClient,
  fillTx: Hex,
  orderId: Hex,
): Promise<EvmFillOutcome> {
  const mined = await transactionReceipt(chain, fillTx);
  if (!mined) return { state: "pending" };
  if (mined.status !== "success") return { state: "failed", reason: `fill reverted in ${fillTx}` };
  let fillTimestamp: number | undefined;
  for (const log of mined.logs) {
    try {
      const event = decodeEventLog({ abi: outputSettlerAbi, data: log.data, topics: log.topics });
      if (event.eventName === "OutputFilled" && event.args.orderId === orderId)
        fillTimestamp = event.args.timestamp;
    } catch {
      // Logs of other contracts (the token's Transfer) do not decode with this ABI.
    }
  }
  if (fillTimestamp === undefined)
    return { state: "failed", reason: `no OutputFilled for the order in ${fillTx}` };
  return { state: "landed", fillTimestamp };
}
