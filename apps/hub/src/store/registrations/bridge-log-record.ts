/** One indexed bridge log (Deposited or Released) on the chain it was read from. */
export interface BridgeLogRecord {
  txHash: string;
  logIndex: number;
  blockNumber: number;
  blockHash: string;
  /** Unix seconds, as the chain has it. */
  blockTimestamp: number;
  depositId: string;
  amount: string;
  observedAt: Date;
}

export interface BridgeLogRow {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_hash: string;
  block_timestamp: string;
  deposit_id: string;
  amount: string;
  observed_at: Date | string;
}

/** The columns of a BridgeLogRow, of a bridge log table aliased `d`. */
export const LOG_COLUMNS = `d.tx_hash, d.log_index, d.block_number::text AS block_number, d.block_hash,
  d.block_timestamp::text AS block_timestamp, d.deposit_id, d.amount::text AS amount, d.observed_at`;

export function logOf(row: BridgeLogRow): BridgeLogRecord {
  return {
    txHash: row.tx_hash,
    logIndex: Number(row.log_index),
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    blockTimestamp: Number(row.block_timestamp),
    depositId: row.deposit_id,
    amount: row.amount,
    observedAt: new Date(row.observed_at),
  };
}
