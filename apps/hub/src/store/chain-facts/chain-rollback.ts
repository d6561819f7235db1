import { isStorableText, type SqlClient, type SqlExecutor } from "@hub/store";
import type { ChainBlock } from "../chain-log.js";
import { WatermarkConflictError } from "./chain-watermark.js";
import type { FamilyFactTables } from "./family-fact-tables.js";
import type { KeptBlock } from "./indexed-range.js";

/** What a rollback removed above the fork point. */
export interface RollbackResult {
  factsRemoved: number;
  claimsReleased: number;
}

/** A reorganisation's rollback of one chain to its fork block. */
export interface ChainRollback {
  chainDomain: string;
  expectedLastBlock: number;
  fork: ChainBlock;
  lease: { name: string; holder: string };
  /** Awaited inside the transaction after its last statement (a test seam for a crash before the commit). */
  beforeCommit?: () => Promise<void>;
}

/** How a chain's indexed history is taken back: a reorganisation, an operator's re-index, a chain forgotten. */
export interface ChainRollbackStore {
  /** The kept blocks of a chain, newest first. */
  listKeptBlocks(chainDomain: string): Promise<KeptBlock[]>;
  /**
   * Rolls a chain back to a fork block after a reorganisation, in one transaction and only from the
   * watermark the reconciler read (and while holder has the lease, otherwise WatermarkConflictError and
   * nothing written): every fact, bridge log and kept block above the fork is deleted, open-flow claims
   * of deleted deposits are released, the watermark, final block and observation mark come down to the
   * fork block.
   */
  rollBackChain(rollback: ChainRollback): Promise<RollbackResult>;
  /**
   * The operator's re-index of an EVM chain from a block (`hub admin reindex`), for a reorganisation
   * deeper than the kept blocks: in one transaction every fact and kept block at or above fromBlock is
   * deleted and the watermark moved to fromBlock - 1, its hash to be taken from the chain at the next
   * tick. Returns what was removed; undefined when the chain has no watermark or fromBlock is above it.
   */
  requestReindex(chainDomain: string, fromBlock: number): Promise<RollbackResult | undefined>;
  /**
   * Drops every fact and the watermark of one chain domain, in one transaction. For a chain that
   * started again from its genesis (a devnet started afresh): its old facts describe blocks that no
   * longer exist, and the reconciler would refuse to index under a watermark whose block changed.
   */
  forgetChainHistory(chainDomain: string): Promise<void>;
}

/** The EVM fact tables a reorganisation rolls back, each with a block_number column. */
const EVM_FACT_TABLES = [
  "chain_order_opens",
  "chain_output_fills",
  "chain_order_finalisations",
  "chain_order_refunds",
  "bridge_deposits",
  "bridge_releases",
] as const;

/** Deletes every EVM fact and kept block of a chain above a block and releases open-flow claims of gone deposits. */
async function removeAbove(tx: SqlExecutor, chainDomain: string, above: number): Promise<RollbackResult> {
  let factsRemoved = 0;
  for (const table of EVM_FACT_TABLES) {
    const rows = await tx.query(
      `DELETE FROM ${table} WHERE chain_domain = $1 AND block_number > $2 RETURNING 1 AS removed`,
      [chainDomain, above],
    );
    factsRemoved += rows.length;
  }
  await tx.query("DELETE FROM chain_recent_blocks WHERE chain_domain = $1 AND block_number > $2", [
    chainDomain,
    above,
  ]);
  // A registration's claim of a deposit that is no longer on the chain is released: the status view
  // claims the deposit again if the new branch holds it.
  const released = await tx.query(
    `UPDATE open_flow_registrations r
     SET deposit_chain_domain = NULL, deposit_tx_hash = NULL, deposit_log_index = NULL, deposit_claimed_at = NULL
     WHERE r.deposit_chain_domain = $1 AND NOT EXISTS (
       SELECT 1 FROM bridge_deposits d
       WHERE d.chain_domain = r.deposit_chain_domain AND d.tx_hash = r.deposit_tx_hash
         AND d.log_index = r.deposit_log_index)
     RETURNING 1 AS released`,
    [chainDomain],
  );
  return { factsRemoved, claimsReleased: released.length };
}

function rollBackChain(sql: SqlClient, rollback: ChainRollback): Promise<RollbackResult> {
  const { chainDomain, expectedLastBlock, fork, lease, beforeCommit } = rollback;
  return sql.transaction(async (tx) => {
    const moved = await tx.query(
      `UPDATE chain_watermarks
       SET last_block = $2, last_block_hash = $3, last_block_timestamp = $4, updated_at = now(),
           final_block = CASE WHEN final_block > $2 THEN $2 ELSE final_block END,
           final_block_timestamp = CASE WHEN final_block > $2 THEN $4 ELSE final_block_timestamp END
       WHERE chain_domain = $1 AND last_block = $5 AND EXISTS (SELECT 1 FROM reconciler_leases
         WHERE name = $6 AND holder = $7 AND expires_at > now())
       RETURNING chain_domain`,
      [chainDomain, fork.number, fork.hash, fork.timestamp, expectedLastBlock, lease.name, lease.holder],
    );
    if (moved.length !== 1) throw new WatermarkConflictError(chainDomain, expectedLastBlock);
    const result = await removeAbove(tx, chainDomain, fork.number);
    await tx.query(
      `UPDATE chain_observation_marks SET last_block = $2, last_block_hash = $3, last_block_timestamp = $4,
         updated_at = now()
       WHERE chain_domain = $1 AND last_block > $2`,
      [chainDomain, fork.number, fork.hash, fork.timestamp],
    );
    await beforeCommit?.();
    return result;
  });
}

function requestReindex(
  sql: SqlClient,
  families: readonly FamilyFactTables[],
  chainDomain: string,
  fromBlock: number,
): Promise<RollbackResult | undefined> {
  return sql.transaction(async (tx) => {
    // A family with facts of its own indexes by address history, not by block: nothing to re-index.
    if (!isStorableText(chainDomain) || families.some((family) => family.owns(chainDomain))) return undefined;
    const rows = await tx.query<{ last_block: string }>(
      "SELECT last_block::text AS last_block FROM chain_watermarks WHERE chain_domain = $1 FOR UPDATE",
      [chainDomain],
    );
    const row = rows[0];
    if (!row || fromBlock < 1 || fromBlock > Number(row.last_block) + 1) return undefined;
    const to = fromBlock - 1;
    await tx.query(
      `UPDATE chain_watermarks SET last_block = $2, reindex_requested = true, updated_at = now(),
         final_block = CASE WHEN final_block > $2 THEN NULL ELSE final_block END,
         final_block_timestamp = CASE WHEN final_block > $2 THEN NULL ELSE final_block_timestamp END
       WHERE chain_domain = $1`,
      [chainDomain, to],
    );
    const result = await removeAbove(tx, chainDomain, to);
    await tx.query(
      "UPDATE chain_observation_marks SET last_block = $2, updated_at = now() WHERE chain_domain = $1 AND last_block > $2",
      [chainDomain, to],
    );
    return result;
  });
}

export function createChainRollbackStore(
  sql: SqlClient,
  families: readonly FamilyFactTables[],
): ChainRollbackStore {
  const historyTables = [
    ...EVM_FACT_TABLES,
    "chain_observation_marks",
    ...families.flatMap((family) => family.historyTables),
    "chain_recent_blocks",
  ];
  return {
    async listKeptBlocks(chainDomain) {
      const rows = await sql.query<{
        block_number: string;
        block_hash: string;
        parent_hash: string;
        block_timestamp: string;
      }>(
        `SELECT block_number::text AS block_number, block_hash, parent_hash, block_timestamp::text AS block_timestamp
         FROM chain_recent_blocks WHERE chain_domain = $1 ORDER BY block_number DESC`,
        [chainDomain],
      );
      return rows.map((row) => ({
        number: Number(row.block_number),
        hash: row.block_hash,
        parentHash: row.parent_hash,
        timestamp: Number(row.block_timestamp),
      }));
    },
    rollBackChain: (rollback) => rollBackChain(sql, rollback),
    requestReindex: (chainDomain, fromBlock) => requestReindex(sql, families, chainDomain, fromBlock),
    async forgetChainHistory(chainDomain) {
      await sql.transaction(async (tx) => {
        for (const table of historyTables) {
          await tx.query(`DELETE FROM ${table} WHERE chain_domain = $1`, [chainDomain]);
        }
        await tx.query("DELETE FROM chain_watermarks WHERE chain_domain = $1", [chainDomain]);
      });
    },
  };
}
