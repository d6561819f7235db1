import type { BridgeLog, ChainBlock, LogPosition, OrderLog } from "../../store/chain-log.js";

export type { BridgeLog, ChainBlock, LogPosition, OrderLog };

/** A block with what reorganisation tracking and the range check need: its parent and its log bloom. */
export interface BlockHeader extends ChainBlock {
  parentHash: string;
  /** 0x hex of the 256-byte bloom of every log in the block. */
  logsBloom: string;
}

/** The block tags an EVM node answers for finality. */
export type FinalityTag = "finalized" | "safe";

export interface OrderLogQuery {
  fromBlock: number;
  toBlock: number;
  inputSettlers: readonly string[];
  outputSettler: string;
  /** Bridge contracts whose Deposited and Released logs are read in the same range. */
  bridges?: readonly string[];
}

/** The reconciler's seam to one chain. */
export interface ChainReader {
  chainId(): Promise<number>;
  headBlockNumber(): Promise<number>;
  block(number: number): Promise<ChainBlock>;
  /**
   * Open, Refunded, Finalised from the input settlers, OutputFilled from the output settler, and
   * Deposited and Released from the bridges, in log order.
   */
  orderLogs(query: OrderLogQuery): Promise<OrderLog[]>;
  /** The block with its parent hash and log bloom; undefined when the chain has no such block (yet). */
  header(number: number): Promise<BlockHeader | undefined>;
  /** The block the node names by a finality tag; undefined when it names none yet. */
  taggedHeader(tag: FinalityTag): Promise<BlockHeader | undefined>;
  /**
   * The same logs as orderLogs, of one block by its hash (eth_getLogs with blockHash): a node that
   * does not know the block fails instead of answering an empty list.
   */
  orderLogsAtBlock(
    blockHash: string,
    query: Omit<OrderLogQuery, "fromBlock" | "toBlock">,
  ): Promise<OrderLog[]>;
}
