import { inputSettlerEscrowAbi, standardOrderFromJson } from "@hub/chain";
import type { OnchainRefund } from "@hub/contract";
import { encodeFunctionData } from "viem";
import type { StandardOrderRecord } from "../status-rules/standard-order-record.js";

/** The `refund(order)` transaction on the escrow that emitted the Open; anyone may send it, value 0. */
export function refundStep(order: StandardOrderRecord, escrow: string): NonNullable<OnchainRefund["step"]> {
  const data = encodeFunctionData({
    abi: inputSettlerEscrowAbi,
    functionName: "refund",
    args: [standardOrderFromJson(order)],
  });
  return { chainId: Number(order.originChainId), to: escrow, data, value: "0" };
}
