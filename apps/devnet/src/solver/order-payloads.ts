import type { Address, Hex } from "viem";
import type { OrderPayload } from "../aggregator/oif-quote.js";
import type { StandardOrder } from "./standard-order.js";

export const permit2Types = {
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
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
};

export const receiveWithAuthorizationTypes = {
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "version", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
  ReceiveWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
};

/** The Permit2 batch witness transfer a wallet signs to let the escrow pull the inputs (oif-escrow-v0). */
export function permit2OrderPayload(order: StandardOrder, permit2: Address, escrow: Address): OrderPayload {
  return {
    signatureType: "eip712",
    domain: {
      name: "Permit2",
      chainId: Number(order.originChainId),
      verifyingContract: permit2.toLowerCase(),
    },
    primaryType: "PermitBatchWitnessTransferFrom",
    message: {
      permitted: order.inputs.map(([token, amount]) => ({
        token: `0x${token.toString(16).padStart(40, "0")}`,
        amount: amount.toString(),
      })),
      spender: escrow.toLowerCase(),
      nonce: order.nonce.toString(),
      deadline: order.fillDeadline.toString(),
      witness: {
        user: order.user.toLowerCase(),
        expires: order.expires,
        inputOracle: order.inputOracle.toLowerCase(),
        outputs: order.outputs.map((o) => ({
          oracle: o.oracle,
          settler: o.settler,
          chainId: Number(o.chainId),
          token: o.token,
          amount: o.amount.toString(),
          recipient: o.recipient,
          callbackData: o.callbackData,
          context: o.context,
        })),
      },
    },
    types: permit2Types,
  };
}

export interface TokenDomain {
  name: string;
  version: string;
}

/** The EIP-3009 authorization a wallet signs; its nonce is the on-chain order id (oif-3009-v0). */
export function receiveWithAuthorizationPayload(
  order: StandardOrder,
  orderId: Hex,
  token: Address,
  tokenDomain: TokenDomain,
  escrow: Address,
): OrderPayload {
  const input = order.inputs[0];
  if (!input) throw new Error("order has no input");
  return {
    signatureType: "eip3009",
    domain: {
      name: tokenDomain.name,
      version: tokenDomain.version,
      chainId: Number(order.originChainId),
      verifyingContract: token.toLowerCase(),
    },
    primaryType: "ReceiveWithAuthorization",
    message: {
      from: order.user.toLowerCase(),
      to: escrow.toLowerCase(),
      value: input[1].toString(),
      validAfter: "0",
      validBefore: order.fillDeadline.toString(),
      nonce: orderId,
    },
    types: receiveWithAuthorizationTypes,
  };
}
