import { isStorableText, type SqlClient, type SqlExecutor } from "@hub/store";
import type { ChainBlock } from "../chain-log.js";
import type { FamilyFactTables } from "./family-fact-tables.js";

/** How far the reconciler has indexed one chain: every block up to lastBlock, inclusive. */
export interface ChainWatermark {
  chainDomain: string;
  /** 0 on a chain of a family with no EVM chain id. */
  chainId: number;
  /** The chain id OIF outputs name it by: the EVM chain id, or another family's genesis hash as a uint256. */
  oifChainId: string;
  /** The last block (on a chain of slots: the slot read before its addresses were caught up). */
  lastBlock: number;
  /** The last block's hash; on a chain of slots its genesis hash (0x hex), which never changes. */
  lastBlockHash: string;
  /** Unix seconds of lastBlock. */
  lastBlockTimestamp: number;
  /** RFC 3339 UTC of the transaction that moved it. */
  updatedAt: string;
  /** The newest final block at or below lastBlock (EVM chains), absent while none is known final. */
  finalBlock?: number;
  /** Unix seconds of finalBlock. */
  finalBlockTimestamp?: number;
  /** An operator moved lastBlock (`hub admin reindex`): its hash is taken from the chain, not checked. */
  reindexRequested: boolean;
}

/** Another writer moved the watermark first, or this instance's lease lapsed: nothing was written. */
export class WatermarkConflictError extends Error {
  constructor(chainDomain: string, expected: number | null) {
    super(`watermark of ${chainDomain} is no longer ${expected ?? "absent"} for this lease holder`);
    this.name = "WatermarkConflictError";
  }
}

/** The watermarks read by chain domain, and the final block the reconciler moves. */
export interface ChainWatermarkStore {
  /** The watermark of a chain domain (exact, case-sensitive), or undefined when it was never indexed. */
  getWatermark(chainDomain: string): Promise<ChainWatermark | undefined>;
  /** Every watermark, one per indexed chain domain. */
  listWatermarks(): Promise<ChainWatermark[]>;
  /**
   * Moves a chain's final block forward (never above its watermark, never backwards), while holder has
   * the lease. Returns whether it moved.
   */
  markFinal(
    chainDomain: string,
    block: ChainBlock,
    lease: { name: string; holder: string },
  ): Promise<boolean>;
}

interface WatermarkRow {
  chain_domain: string;
  chain_id: string;
  last_block: string;
  last_block_hash: string;
  last_block_timestamp: string;
  updated_at: Date | string;
  final_block: string | null;
  final_block_timestamp: string | null;
  reindex_requested: boolean;
}

const watermarkColumns = `chain_domain, chain_id::text AS chain_id, last_block::text AS last_block,
  last_block_hash, last_block_timestamp::text AS last_block_timestamp, updated_at,
  final_block::text AS final_block, final_block_timestamp::text AS final_block_timestamp, reindex_requested`;

function watermarkFromRow(row: WatermarkRow, families: readonly FamilyFactTables[]): ChainWatermark {
  const family = families.find((candidate) => candidate.owns(row.chain_domain));
  return {
    chainDomain: row.chain_domain,
    chainId: Number(row.chain_id),
    oifChainId: family ? family.oifChainIdOf(row.last_block_hash) : row.chain_id,
    lastBlock: Number(row.last_block),
    lastBlockHash: row.last_block_hash,
    lastBlockTimestamp: Number(row.last_block_timestamp),
    updatedAt: new Date(row.updated_at).toISOString(),
    ...(row.final_block === null
      ? {}
      : { finalBlock: Number(row.final_block), finalBlockTimestamp: Number(row.final_block_timestamp) }),
    reindexRequested: row.reindex_requested,
  };
}

/** Moves a chain's final block forward to block, never above its watermark. */
export async function setFinal(tx: SqlExecutor, chainDomain: string, block: ChainBlock): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE chain_watermarks SET final_block = $2, final_block_timestamp = $3
     WHERE chain_domain = $1 AND last_block >= $2 AND (final_block IS NULL OR final_block < $2)
     RETURNING chain_domain`,
    [chainDomain, block.number, block.timestamp],
  );
  return rows.length === 1;
}

export function createChainWatermarkStore(
  sql: SqlClient,
  families: readonly FamilyFactTables[],
): ChainWatermarkStore {
  return {
    async getWatermark(chainDomain) {
      if (!isStorableText(chainDomain)) return undefined;
      const rows = await sql.query<WatermarkRow>(
        `SELECT ${watermarkColumns} FROM chain_watermarks WHERE chain_domain = $1`,
        [chainDomain],
      );
      return rows[0] ? watermarkFromRow(rows[0], families) : undefined;
    },

    async listWatermarks() {
      const rows = await sql.query<WatermarkRow>(
        `SELECT ${watermarkColumns} FROM chain_watermarks ORDER BY chain_domain`,
      );
      return rows.map((row) => watermarkFromRow(row, families));
    },

    async markFinal(chainDomain, block, lease) {
      return sql.transaction(async (tx) => {
        const held = await tx.query(
          "SELECT 1 AS held FROM reconciler_leases WHERE name = $1 AND holder = $2 AND expires_at > now()",
          [lease.name, lease.holder],
        );
        if (held.length === 0) return false;
        return setFinal(tx, chainDomain, block);
      });
    },
  };
}
