import type { MandateOutputRecord, StandardOrderRecord } from "../status-rules/index.js";

// The EVM chain readers' blocks and logs, in the encoding the chain-facts store writes.

export interface ChainBlock {
  number: number;
  hash: string;
  /** Unix seconds. */
  timestamp: number;
}

/** Where a log sits: lowercase 0x hex hashes. */
export interface LogPosition {
  blockNumber: number;
  blockHash: string;
  txHash: string;
  logIndex: number;
}

/** One escrow or output-settler event, decoded to the exact stored encoding. */
export type OrderLog =
  | (LogPosition & { kind: "open"; settler: string; onchainOrderId: string; order: StandardOrderRecord })
  | (LogPosition & {
      kind: "output-filled";
      settler: string;
      onchainOrderId: string;
      solver: string;
      timestamp: number;
      output: MandateOutputRecord;
      finalAmount: string;
    })
  | (LogPosition & {
      kind: "finalised";
      settler: string;
      onchainOrderId: string;
      solver: string;
      destination: string;
    })
  | (LogPosition & { kind: "refunded"; settler: string; onchainOrderId: string })
  | BridgeLog;

/** A Bridge Deposited (source chain) or Released (destination chain) log; addresses and ids lowercase. */
export type BridgeLog =
  | (LogPosition & {
      kind: "bridge-deposited";
      bridge: string;
      depositId: string;
      depositor: string;
      token: string;
      amount: string;
      destinationChainId: string;
      recipient: string;
      ref: string;
    })
  | (LogPosition & {
      kind: "bridge-released";
      bridge: string;
      depositId: string;
      token: string;
      recipient: string;
      amount: string;
    });
