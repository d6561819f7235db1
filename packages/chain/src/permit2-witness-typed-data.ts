import type { Address } from "viem";
import { PERMIT2_ADDRESS } from "./install-permit2.js";
import { decodeStandardOrderInput, type StandardOrder } from "./standard-order.js";

export const permit2WitnessTypes = {
  PermitBatchWitnessTransferFrom: [
    { name: "permitted", type: "TokenPermissions[]" },
    { name: "spender", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
    { name: "witness", type: "Permit2Witness" },
  ],
  TokenPermissions: [
    { name: "token", type: "address" },
    { name: "amount", type: "uint256" },
  ],
  Permit2Witness: [
    { name: "user", type: "address" },
    { name: "expires", type: "uint32" },
    { name: "inputOracle", type: "address" },
    { name: "outputs", type: "MandateOutput[]" },
  ],
  MandateOutput: [
    { name: "oracle", type: "bytes32" },
    { name: "settler", type: "bytes32" },
    { name: "chainId", type: "uint256" },
    { name: "token", type: "bytes32" },
    { name: "amount", type: "uint256" },
    { name: "recipient", type: "bytes32" },
    { name: "callbackData", type: "bytes" },
    { name: "context", type: "bytes" },
  ],
} as const;

/**
 * The EIP-712 typed data a wallet signs (eth_signTypedData_v4) so the escrow can open `order` through
 * Permit2: batch witness transfer to the escrow, nonce = order.nonce, deadline = order.fillDeadline.
 */
export function permit2WitnessTypedData(params: { order: StandardOrder; escrow: Address; chainId?: number }) {
  const { order, escrow } = params;
  return {
    domain: {
      name: "Permit2",
      chainId: params.chainId ?? Number(order.originChainId),
      verifyingContract: PERMIT2_ADDRESS,
    },
    types: permit2WitnessTypes,
    primaryType: "PermitBatchWitnessTransferFrom" as const,
    message: {
      permitted: order.inputs.map(([token, amount]) => ({ token: decodeStandardOrderInput(token), amount })),
      spender: escrow,
      nonce: order.nonce,
      deadline: BigInt(order.fillDeadline),
      witness: {
        user: order.user,
        expires: order.expires,
        inputOracle: order.inputOracle,
        outputs: [...order.outputs],
      },
    },
  };
}
