import { type Log, parseEventLogs } from "viem";
import { bridgeAbi, committeeOracleAbi, inputSettlerEscrowAbi, outputSettlerAbi } from "./abis.js";

/** Open(orderId, order) logs of the escrow, decoded. */
export function decodeOpenLogs(logs: Log[]) {
  return parseEventLogs({ abi: inputSettlerEscrowAbi, eventName: "Open", logs });
}

export function decodeRefundedLogs(logs: Log[]) {
  return parseEventLogs({ abi: inputSettlerEscrowAbi, eventName: "Refunded", logs });
}

export function decodeFinalisedLogs(logs: Log[]) {
  return parseEventLogs({ abi: inputSettlerEscrowAbi, eventName: "Finalised", logs });
}

/** OutputFilled(orderId, solver, timestamp, output, finalAmount) logs of the output settler. */
export function decodeOutputFilledLogs(logs: Log[]) {
  return parseEventLogs({ abi: outputSettlerAbi, eventName: "OutputFilled", logs });
}

/** OutputProven(chainid, remoteIdentifier, application, payloadHash) logs of the committee oracle. */
export function decodeOutputProvenLogs(logs: Log[]) {
  return parseEventLogs({ abi: committeeOracleAbi, eventName: "OutputProven", logs });
}

export function decodeDepositedLogs(logs: Log[]) {
  return parseEventLogs({ abi: bridgeAbi, eventName: "Deposited", logs });
}

export function decodeReleasedLogs(logs: Log[]) {
  return parseEventLogs({ abi: bridgeAbi, eventName: "Released", logs });
}

export type OpenLog = ReturnType<typeof decodeOpenLogs>[number];
export type RefundedLog = ReturnType<typeof decodeRefundedLogs>[number];
export type FinalisedLog = ReturnType<typeof decodeFinalisedLogs>[number];
export type OutputFilledLog = ReturnType<typeof decodeOutputFilledLogs>[number];
export type OutputProvenLog = ReturnType<typeof decodeOutputProvenLogs>[number];
export type DepositedLog = ReturnType<typeof decodeDepositedLogs>[number];
export type ReleasedLog = ReturnType<typeof decodeReleasedLogs>[number];
