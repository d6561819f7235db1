import {
  type Account,
  type Address,
  type Chain,
  type Hex,
  isAddressEqual,
  type Transport,
  type WalletClient,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { committeeOracleAbi } from "./abis.js";
import { bytes32ToAddress } from "./bytes32-address.js";
import { fillDescriptionHash } from "./fill-description.js";
import type { MandateOutput } from "./standard-order.js";

/** What the committee attests: a fill payload observed at `application` on `remoteChainId`. */
export interface Attestation {
  remoteChainId: bigint;
  remoteOracle: Hex;
  application: Hex;
  payloadHash: Hex;
}

export const attestationTypes = {
  Attestation: [
    { name: "remoteChainId", type: "uint256" },
    { name: "remoteOracle", type: "bytes32" },
    { name: "application", type: "bytes32" },
    { name: "payloadHash", type: "bytes32" },
  ],
} as const;

/**
 * The attestation for one OutputFilled log: remote chain = output.chainId, remote oracle = output.oracle,
 * application = output.settler. Throws if the log was not emitted by that settler (a forged fill).
 */
export function attestationForOutputFilled(log: {
  address: Address;
  args: { orderId: Hex; solver: Hex; timestamp: number; output: MandateOutput };
}): Attestation {
  const { output } = log.args;
  if (!isAddressEqual(log.address, bytes32ToAddress(output.settler))) {
    throw new Error(`OutputFilled from ${log.address} is not from the output's settler ${output.settler}`);
  }
  return {
    remoteChainId: output.chainId,
    remoteOracle: output.oracle,
    application: output.settler,
    payloadHash: fillDescriptionHash(log.args),
  };
}

/** EIP-712 typed data a committee member signs, for the CommitteeOracle at `oracle` on `chainId` (the input chain). */
export function attestationTypedData(params: { oracle: Address; chainId: number; attestation: Attestation }) {
  return {
    domain: {
      name: "CommitteeOracle",
      version: "1",
      chainId: params.chainId,
      verifyingContract: params.oracle,
    },
    types: attestationTypes,
    primaryType: "Attestation" as const,
    message: params.attestation,
  };
}

/** A committee member's 65-byte signature of the attestation. */
export function signAttestation(params: {
  privateKey: Hex;
  oracle: Address;
  chainId: number;
  attestation: Attestation;
}): Promise<Hex> {
  return privateKeyToAccount(params.privateKey).signTypedData(attestationTypedData(params));
}

/** Records the attestation on the input chain's CommitteeOracle (needs threshold distinct member signatures). */
export function submitAttestation(
  client: WalletClient<Transport, Chain, Account>,
  params: { oracle: Address; attestation: Attestation; signatures: readonly Hex[] },
): Promise<Hex> {
  const { attestation } = params;
  return client.writeContract({
    address: params.oracle,
    abi: committeeOracleAbi,
    functionName: "submitAttestation",
    args: [
      attestation.remoteChainId,
      attestation.remoteOracle,
      attestation.application,
      attestation.payloadHash,
      params.signatures,
    ],
  });
}
