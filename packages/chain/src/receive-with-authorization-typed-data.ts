import type { Address, Hex } from "viem";

export const receiveWithAuthorizationTypes = {
  ReceiveWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

/**
 * EIP-3009 ReceiveWithAuthorization typed data under the token's domain {name, version, chainId,
 * verifyingContract}. For openFor: to = the escrow, validAfter = 0, validBefore = fillDeadline, nonce = order id.
 */
export function receiveWithAuthorizationTypedData(params: {
  token: { address: Address; name: string; version: string };
  chainId: number;
  from: Address;
  to: Address;
  value: bigint;
  validAfter?: bigint;
  validBefore: bigint;
  nonce: Hex;
}) {
  return {
    domain: {
      name: params.token.name,
      version: params.token.version,
      chainId: params.chainId,
      verifyingContract: params.token.address,
    },
    types: receiveWithAuthorizationTypes,
    primaryType: "ReceiveWithAuthorization" as const,
    message: {
      from: params.from,
      to: params.to,
      value: params.value,
      validAfter: params.validAfter ?? 0n,
      validBefore: params.validBefore,
      nonce: params.nonce,
    },
  };
}
