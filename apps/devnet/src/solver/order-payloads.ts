import { permit2WitnessTypes, receiveWithAuthorizationTypes, type StandardOrder } from "@hub/chain";
import type { Address, Hex } from "viem";
import type { OrderPayload } from "../aggregator/oif-quote.js";

type TypeFields = Record<string, readonly { name: string; type: string }[]>;

function wireTypes(types: TypeFields): Record<string, { name: string; type: string }[]> {
  return Object.fromEntries(
    Object.entries(types).map(([name, fields]) => [name, fields.map((f) => ({ ...f }))]),
  );
}

// Wallets take eth_signTypedData_v4 JSON with the domain's own type listed.
export const permit2Types = wireTypes({
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
  ...permit2WitnessTypes,
});

export const receiveWithAuthorizationPayloadTypes = wireTypes({
  EIP712Domain: [
    { name: "name", type: "string" },
    { name: "version", type: "string" },
    { name: "chainId", type: "uint256" },
    { name: "verifyingContract", type: "address" },
  ],
  ...receiveWithAuthorizationTypes,
});

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
          // A Solana chain's id (a 32-byte genesis hash) is beyond a JSON number: it goes as a decimal string.
          chainId: o.chainId <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(o.chainId) : o.chainId.toString(),
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
    types: receiveWithAuthorizationPayloadTypes,
  };
}
