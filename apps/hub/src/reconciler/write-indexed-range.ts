import type { SqlClient, SqlExecutor } from "@hub/store";
import type { BridgeLog, ChainBlock, OrderLog } from "./chain-reader.js";

export interface IndexedRange {
  chainDomain: string;
  chainId: number;
  /** The watermark this range starts from; null when the chain was never indexed. */
  expectedLastBlock: number | null;
  /** The range's last block: the new watermark. */
  toBlock: ChainBlock;
  logs: readonly OrderLog[];
  /** Block number → timestamp (unix seconds) for every block holding one of the logs. */
  blockTimestamps: ReadonlyMap<number, number>;
  observedAt: Date;
  lease: { name: string; holder: string };
}

/** Another writer moved the watermark first, or this instance's lease lapsed: nothing was written. */
export class WatermarkConflictError extends Error {
  constructor(chainDomain: string, expected: number | null) {
    super(`watermark of ${chainDomain} is no longer ${expected ?? "absent"} for this lease holder`);
    this.name = "WatermarkConflictError";
  }
}

const leaseHeld = `EXISTS (SELECT 1 FROM reconciler_leases
  WHERE name = $7 AND holder = $8 AND expires_at > now())`;

async function moveWatermark(tx: SqlExecutor, range: IndexedRange): Promise<boolean> {
  const params = [
    range.chainDomain,
    range.chainId,
    range.toBlock.number,
    range.toBlock.hash,
    range.toBlock.timestamp,
    range.observedAt.toISOString(),
    range.lease.name,
    range.lease.holder,
  ];
  if (range.expectedLastBlock === null) {
    const rows = await tx.query(
      `INSERT INTO chain_watermarks
         (chain_domain, chain_id, last_block, last_block_hash, last_block_timestamp, updated_at)
       SELECT $1::text, $2::bigint, $3::bigint, $4::text, $5::bigint, $6::timestamptz WHERE ${leaseHeld}
       ON CONFLICT (chain_domain) DO NOTHING
       RETURNING chain_domain`,
      params,
    );
    return rows.length === 1;
  }
  const rows = await tx.query(
    `UPDATE chain_watermarks
     SET last_block = $3, last_block_hash = $4, last_block_timestamp = $5, updated_at = $6
     WHERE chain_domain = $1 AND chain_id = $2 AND last_block = $9 AND ${leaseHeld}
     RETURNING chain_domain`,
    [...params, range.expectedLastBlock],
  );
  return rows.length === 1;
}

async function insertBridgeLog(
  tx: SqlExecutor,
  range: IndexedRange,
  log: BridgeLog,
  timestamp: number,
): Promise<number> {
  const common = [
    range.chainDomain,
    log.txHash,
    log.logIndex,
    log.blockNumber,
    log.blockHash,
    timestamp,
    log.bridge,
    log.depositId,
    range.observedAt.toISOString(),
  ];
  const head =
    "chain_domain, tx_hash, log_index, block_number, block_hash, block_timestamp, bridge, deposit_id, observed_at";
  const onRepeat = "ON CONFLICT (chain_domain, tx_hash, log_index) DO NOTHING RETURNING 1 AS written";
  const rows =
    log.kind === "bridge-deposited"
      ? await tx.query(
          `INSERT INTO bridge_deposits (${head}, depositor, token, amount, destination_chain_id, recipient, ref)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric, $13::numeric, $14, $15) ${onRepeat}`,
          [...common, log.depositor, log.token, log.amount, log.destinationChainId, log.recipient, log.ref],
        )
      : await tx.query(
          `INSERT INTO bridge_releases (${head}, token, recipient, amount)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::numeric) ${onRepeat}`,
          [...common, log.token, log.recipient, log.amount],
        );
  return rows.length;
}

async function insertLog(tx: SqlExecutor, range: IndexedRange, log: OrderLog): Promise<number> {
  const timestamp = range.blockTimestamps.get(log.blockNumber);
  if (timestamp === undefined) throw new Error(`no timestamp for block ${log.blockNumber}`);
  if (log.kind === "bridge-deposited" || log.kind === "bridge-released") {
    return insertBridgeLog(tx, range, log, timestamp);
  }
  const common = [
    log.onchainOrderId,
    range.chainDomain,
    log.blockNumber,
    log.blockHash,
    timestamp,
    log.txHash,
    log.logIndex,
    log.settler,
    range.observedAt.toISOString(),
  ];
  const head = `onchain_order_id, chain_domain, block_number, block_hash, block_timestamp, tx_hash, log_index,
    settler, observed_at`;
  // Conflict only on the log's identity: a repeat of the same log is a no-op, while a second Open,
  // Finalised or Refunded for one order id (which the escrow never emits) fails the range loudly.
  const onRepeat = "ON CONFLICT (chain_domain, block_number, log_index) DO NOTHING RETURNING 1 AS written";
  let rows: unknown[];
  switch (log.kind) {
    case "open":
      rows = await tx.query(
        `INSERT INTO chain_order_opens (${head}, order_user, fill_deadline, expires, standard_order)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb) ${onRepeat}`,
        [...common, log.order.user, log.order.fillDeadline, log.order.expires, JSON.stringify(log.order)],
      );
      break;
    case "output-filled":
      rows = await tx.query(
        `INSERT INTO chain_output_fills (${head}, solver, fill_timestamp, output, final_amount)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::numeric) ${onRepeat}`,
        [...common, log.solver, log.timestamp, JSON.stringify(log.output), log.finalAmount],
      );
      break;
    case "finalised":
      rows = await tx.query(
        `INSERT INTO chain_order_finalisations (${head}, solver, destination)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ${onRepeat}`,
        [...common, log.solver, log.destination],
      );
      break;
    case "refunded":
      rows = await tx.query(
        `INSERT INTO chain_order_refunds (${head}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ${onRepeat}`,
        common,
      );
      break;
  }
  return rows.length;
}

/** Moves the chain's observation mark to the range's watermark: only ranges that recorded news do. */
async function markObservation(tx: SqlExecutor, range: IndexedRange): Promise<void> {
  await tx.query(
    `INSERT INTO chain_observation_marks (chain_domain, last_block, last_block_hash, last_block_timestamp, updated_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (chain_domain) DO UPDATE
       SET last_block = EXCLUDED.last_block, last_block_hash = EXCLUDED.last_block_hash,
           last_block_timestamp = EXCLUDED.last_block_timestamp, updated_at = EXCLUDED.updated_at`,
    [
      range.chainDomain,
      range.toBlock.number,
      range.toBlock.hash,
      range.toBlock.timestamp,
      range.observedAt.toISOString(),
    ],
  );
}

/**
 * Writes a range's facts and moves the chain's watermark in one transaction. The watermark moves only
 * from the value the range was read from and only while this holder has the lease (checked in the
 * same statement), so a second instance or a lapsed leader commits nothing. A range that wrote a new
 * fact also moves the chain's observation mark. Returns facts written.
 */
export async function writeIndexedRange(sql: SqlClient, range: IndexedRange): Promise<number> {
  return sql.transaction(async (tx) => {
    if (!(await moveWatermark(tx, range)))
      throw new WatermarkConflictError(range.chainDomain, range.expectedLastBlock);
    let written = 0;
    for (const log of range.logs) written += await insertLog(tx, range, log);
    if (written > 0) await markObservation(tx, range);
    return written;
  });
}
