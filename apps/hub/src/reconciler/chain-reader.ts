import type { MandateOutputRecord, StandardOrderRecord } from "../order-state/index.js";

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
  | (LogPosition & { kind: "refunded"; settler: string; onchainOrderId: string });

export interface OrderLogQuery {
  fromBlock: number;
  toBlock: number;
  inputSettlers: readonly string[];
  outputSettler: string;
}

/** The reconciler's seam to one chain. */
export interface ChainReader {
  chainId(): Promise<number>;
  headBlockNumber(): Promise<number>;
  block(number: number): Promise<ChainBlock>;
  /** Open, Refunded, Finalised from the input settlers and OutputFilled from the output settler, in log order. */
  orderLogs(query: OrderLogQuery): Promise<OrderLog[]>;
}
