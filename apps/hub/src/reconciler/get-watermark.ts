import type { SqlExecutor } from "@hub/store";

/** How far the reconciler has indexed one chain: every block up to lastBlock, inclusive. */
export interface ChainWatermark {
  chainDomain: string;
  chainId: number;
  lastBlock: number;
  lastBlockHash: string;
  /** Unix seconds of lastBlock. */
  lastBlockTimestamp: number;
  /** RFC 3339 UTC of the transaction that moved it. */
  updatedAt: string;
}

export interface WatermarkRow {
  chain_domain: string;
  chain_id: string;
  last_block: string;
  last_block_hash: string;
  last_block_timestamp: string;
  updated_at: Date | string;
}

export const watermarkColumns = `chain_domain, chain_id::text AS chain_id, last_block::text AS last_block,
  last_block_hash, last_block_timestamp::text AS last_block_timestamp, updated_at`;

export function watermarkFromRow(row: WatermarkRow): ChainWatermark {
  return {
    chainDomain: row.chain_domain,
    chainId: Number(row.chain_id),
    lastBlock: Number(row.last_block),
    lastBlockHash: row.last_block_hash,
    lastBlockTimestamp: Number(row.last_block_timestamp),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

/** The watermark of a chain domain (exact, case-sensitive), or undefined when it was never indexed. */
export async function getWatermark(
  sql: SqlExecutor,
  chainDomain: string,
): Promise<ChainWatermark | undefined> {
  const rows = await sql.query<WatermarkRow>(
    `SELECT ${watermarkColumns} FROM chain_watermarks WHERE chain_domain = $1`,
    [chainDomain],
  );
  return rows[0] ? watermarkFromRow(rows[0]) : undefined;
}

/** Every watermark, one per indexed chain domain. */
export async function listWatermarks(sql: SqlExecutor): Promise<ChainWatermark[]> {
  const rows = await sql.query<WatermarkRow>(
    `SELECT ${watermarkColumns} FROM chain_watermarks ORDER BY chain_domain`,
  );
  return rows.map(watermarkFromRow);
}
