import type { SqlClient, SqlExecutor } from "@hub/store";
import type { ChainBlock, OrderLog } from "../chain-log.js";
import { insertBridgeLog } from "./bridge-logs.js";
import { setFinal, WatermarkConflictError } from "./chain-watermark.js";
import { insertOrderLog } from "./evm-order-logs.js";

/** One block the reconciler indexed, kept to find the fork point of a reorganisation. */
export interface KeptBlock extends ChainBlock {
  parentHash: string;
}

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
  /** Blocks of the range to keep for reorganisation tracking (EVM chains). */
  keptBlocks?: readonly KeptBlock[];
  /** The newest final block, when it is at or below toBlock. */
  finalBlock?: ChainBlock;
  /** Kept blocks further than this below toBlock are deleted; 1024 when absent. */
  keepBlocks?: number;
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
     SET last_block = $3, last_block_hash = $4, last_block_timestamp = $5, updated_at = $6,
         reindex_requested = false
     WHERE chain_domain = $1 AND chain_id = $2 AND last_block = $9 AND ${leaseHeld}
     RETURNING chain_domain`,
    [...params, range.expectedLastBlock],
  );
  return rows.length === 1;
}

async function insertLog(tx: SqlExecutor, range: IndexedRange, log: OrderLog): Promise<number> {
  const timestamp = range.blockTimestamps.get(log.blockNumber);
  if (timestamp === undefined) throw new Error(`no timestamp for block ${log.blockNumber}`);
  if (log.kind === "bridge-deposited" || log.kind === "bridge-released") {
    return insertBridgeLog(tx, range, log, timestamp);
  }
  return insertOrderLog(tx, range, log, timestamp);
}

/** Moves the chain's observation mark to the range's watermark: only ranges that recorded news do. */
export async function markObservation(
  tx: SqlExecutor,
  range: Pick<IndexedRange, "chainDomain" | "toBlock" | "observedAt">,
): Promise<void> {
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

async function keepBlocks(tx: SqlExecutor, range: IndexedRange, kept: readonly KeptBlock[]): Promise<void> {
  for (const block of kept) {
    await tx.query(
      `INSERT INTO chain_recent_blocks (chain_domain, block_number, block_hash, parent_hash, block_timestamp)
       VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (chain_domain, block_number) DO UPDATE
         SET block_hash = excluded.block_hash, parent_hash = excluded.parent_hash,
             block_timestamp = excluded.block_timestamp`,
      [range.chainDomain, block.number, block.hash, block.parentHash, block.timestamp],
    );
  }
  await tx.query("DELETE FROM chain_recent_blocks WHERE chain_domain = $1 AND block_number < $2", [
    range.chainDomain,
    range.toBlock.number - (range.keepBlocks ?? 1024),
  ]);
}

export function writeIndexedRange(sql: SqlClient, range: IndexedRange): Promise<number> {
  return sql.transaction(async (tx) => {
    if (!(await moveWatermark(tx, range)))
      throw new WatermarkConflictError(range.chainDomain, range.expectedLastBlock);
    let written = 0;
    for (const log of range.logs) written += await insertLog(tx, range, log);
    if (written > 0) await markObservation(tx, range);
    if (range.keptBlocks?.length) await keepBlocks(tx, range, range.keptBlocks);
    if (range.finalBlock) await setFinal(tx, range.chainDomain, range.finalBlock);
    return written;
  });
}
