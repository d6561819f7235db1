import { inputSettlerEscrowAbi } from "@hub/chain";
import type { OnchainRefund } from "@hub/contract";
import { encodeFunctionData, type Hex } from "viem";
import type { StandardOrderRecord } from "../order-state/standard-order-record.js";

/** The `refund(order)` transaction on the escrow that emitted the Open; anyone may send it, value 0. */
export function refundStep(order: StandardOrderRecord, escrow: string): NonNullable<OnchainRefund["step"]> {
  const data = encodeFunctionData({
    abi: inputSettlerEscrowAbi,
    functionName: "refund",
    args: [
      {
        user: order.user as Hex,
        nonce: BigInt(order.nonce),
        originChainId: BigInt(order.originChainId),
        expires: order.expires,
        fillDeadline: order.fillDeadline,
        inputOracle: order.inputOracle as Hex,
        inputs: order.inputs.map(([token, amount]) => [BigInt(token), BigInt(amount)] as const),
        outputs: order.outputs.map((output) => ({
          oracle: output.oracle as Hex,
          settler: output.settler as Hex,
          chainId: BigInt(output.chainId),
          token: output.token as Hex,
          amount: BigInt(output.amount),
          recipient: output.recipient as Hex,
          callbackData: output.callbackData as Hex,
          context: output.context as Hex,
        })),
      },
    ],
  });
  return { chainId: Number(order.originChainId), to: escrow, data, value: "0" };
}
