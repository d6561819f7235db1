import type { OnchainTxOrder } from "@hub/contract";
import { isStorableText, type SqlClient, type SqlExecutor } from "@hub/store";
import type { BridgeLog, ChainBlock, OrderLog } from "../reconciler/chain-reader.js";
import type {
  ChainFacts,
  ChainLogRef,
  MandateOutputRecord,
  OutputFilledFact,
  StandardOrderRecord,
} from "../status-rules/index.js";

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

export interface TransactionEvent {
  /** The escrow order id, or the bridge depositId for a deposit or release. */
  onchainOrderId: string;
  event: NonNullable<OnchainTxOrder["event"]>;
}

export interface BridgeDepositLog extends ChainLogRef {
  bridge: string;
  destinationChainId: string;
  amount: string;
  recipient: string;
}

export interface BridgeReleaseLog extends ChainLogRef {
  bridge: string;
  amount: string;
  recipient: string;
}

/**
 * What the reconciler indexes and what the on-chain views read of it: the escrow facts, the bridge
 * logs, the watermarks and observation marks, and the lease that keeps one indexer across replicas.
 */
export interface ChainFactsStore {
  /**
   * Takes or renews the named lease for holder: succeeds when nobody holds it, when holder already
   * does, or when the other holder's lease has expired. One statement, so two replicas never both win.
   * Expiry is database time: replicas' clocks never have to agree.
   */
  acquireReconcilerLease(lease: { name: string; holder: string; ttlMs: number }): Promise<boolean>;
  /** Gives the lease up so another replica can take it at once; a no-op when holder no longer has it. */
  releaseReconcilerLease(lease: { name: string; holder: string }): Promise<void>;
  /** The current holder of an unexpired lease, if any. */
  getReconcilerLeaseHolder(name: string): Promise<string | undefined>;
  /** The watermark of a chain domain (exact, case-sensitive), or undefined when it was never indexed. */
  getWatermark(chainDomain: string): Promise<ChainWatermark | undefined>;
  /** Every watermark, one per indexed chain domain. */
  listWatermarks(): Promise<ChainWatermark[]>;
  /**
   * Writes a range's facts and moves the chain's watermark in one transaction. The watermark moves only
   * from the value the range was read from and only while this holder has the lease (checked in the
   * same statement), so a second instance or a lapsed leader commits nothing. A range that wrote a new
   * fact also moves the chain's observation mark. Returns facts written.
   */
  writeIndexedRange(range: IndexedRange): Promise<number>;
  /**
   * Drops every fact and the watermark of one chain domain, in one transaction. For a chain that
   * started again from its genesis (a devnet started afresh): its old facts describe blocks that no
   * longer exist, and the reconciler would refuse to index under a watermark whose block changed.
   */
  forgetChainHistory(chainDomain: string): Promise<void>;
  /**
   * Every indexed fact for each of the ids, looked up exactly as given (an uppercase or 0x-less id finds
   * nothing). Ids with no fact at all are absent from the map.
   */
  readChainFacts(onchainOrderIds: readonly string[]): Promise<Map<string, ChainFacts>>;
  /**
   * The first indexed event (by log index) of a transaction on one chain domain: the four escrow kinds
   * and the open-flow Bridge's Deposited and Released (named by their depositId). Exact match: hashes
   * are stored lowercase, so another case finds nothing.
   */
  findTransactionEvent(chainDomain: string, txHash: string): Promise<TransactionEvent | undefined>;
  /**
   * The indexed bridge logs of a depositId, exact match: the first Deposited log and every Released
   * log, each by (block, log index).
   */
  findBridgeLogs(
    depositId: string,
  ): Promise<{ deposit: BridgeDepositLog | undefined; releases: BridgeReleaseLog[] }>;
}

interface WatermarkRow {
  chain_domain: string;
  chain_id: string;
  last_block: string;
  last_block_hash: string;
  last_block_timestamp: string;
  updated_at: Date | string;
}

const watermarkColumns = `chain_domain, chain_id::text AS chain_id, last_block::text AS last_block,
  last_block_hash, last_block_timestamp::text AS last_block_timestamp, updated_at`;

function watermarkFromRow(row: WatermarkRow): ChainWatermark {
  return {
    chainDomain: row.chain_domain,
    chainId: Number(row.chain_id),
    lastBlock: Number(row.last_block),
    lastBlockHash: row.last_block_hash,
    lastBlockTimestamp: Number(row.last_block_timestamp),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

interface FactRow {
  onchain_order_id: string;
  chain_domain: string;
  block_number: string;
  block_hash: string;
  block_timestamp: string;
  tx_hash: string;
  log_index: number;
  settler: string;
}

const factColumns = `onchain_order_id, chain_domain, block_number::text AS block_number, block_hash,
  block_timestamp::text AS block_timestamp, tx_hash, log_index, settler`;

function factRef(row: FactRow): ChainLogRef & { settler: string } {
  return {
    chainDomain: row.chain_domain,
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    blockTimestamp: new Date(Number(row.block_timestamp) * 1000).toISOString(),
    txHash: row.tx_hash,
    logIndex: row.log_index,
    settler: row.settler,
  };
}

function parseJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

interface BridgeLogRow {
  chain_domain: string;
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_hash: string;
  block_timestamp: string;
  bridge: string;
  amount: string;
  recipient: string;
}

const bridgeLogColumns = `chain_domain, tx_hash, log_index, block_number::text AS block_number, block_hash,
  block_timestamp::text AS block_timestamp, bridge, amount::text AS amount, recipient`;

function bridgeLogOf(row: BridgeLogRow): BridgeReleaseLog {
  return {
    chainDomain: row.chain_domain,
    txHash: row.tx_hash,
    logIndex: Number(row.log_index),
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    blockTimestamp: new Date(Number(row.block_timestamp) * 1000).toISOString(),
    bridge: row.bridge,
    amount: row.amount,
    recipient: row.recipient,
  };
}

const FACT_TABLES = [
  "chain_order_opens",
  "chain_output_fills",
  "chain_order_finalisations",
  "chain_order_refunds",
  "bridge_deposits",
  "bridge_releases",
  "chain_observation_marks",
] as const;

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

export function createChainFactsStore(sql: SqlClient): ChainFactsStore {
  return {
    async acquireReconcilerLease(lease) {
      const rows = await sql.query<{ holder: string }>(
        `INSERT INTO reconciler_leases (name, holder, acquired_at, expires_at)
         VALUES ($1, $2, now(), now() + $3 * interval '1 millisecond')
         ON CONFLICT (name) DO UPDATE SET
           holder = excluded.holder,
           expires_at = excluded.expires_at,
           acquired_at = CASE WHEN reconciler_leases.holder = excluded.holder
                              THEN reconciler_leases.acquired_at ELSE excluded.acquired_at END
         WHERE reconciler_leases.holder = excluded.holder OR reconciler_leases.expires_at <= now()
         RETURNING holder`,
        [lease.name, lease.holder, lease.ttlMs],
      );
      return rows.length === 1;
    },

    async releaseReconcilerLease(lease) {
      await sql.query("DELETE FROM reconciler_leases WHERE name = $1 AND holder = $2", [
        lease.name,
        lease.holder,
      ]);
    },

    async getReconcilerLeaseHolder(name) {
      const rows = await sql.query<{ holder: string }>(
        "SELECT holder FROM reconciler_leases WHERE name = $1 AND expires_at > now()",
        [name],
      );
      return rows[0]?.holder;
    },

    async getWatermark(chainDomain) {
      if (!isStorableText(chainDomain)) return undefined;
      const rows = await sql.query<WatermarkRow>(
        `SELECT ${watermarkColumns} FROM chain_watermarks WHERE chain_domain = $1`,
        [chainDomain],
      );
      return rows[0] ? watermarkFromRow(rows[0]) : undefined;
    },

    async listWatermarks() {
      const rows = await sql.query<WatermarkRow>(
        `SELECT ${watermarkColumns} FROM chain_watermarks ORDER BY chain_domain`,
      );
      return rows.map(watermarkFromRow);
    },

    writeIndexedRange: (range) =>
      sql.transaction(async (tx) => {
        if (!(await moveWatermark(tx, range)))
          throw new WatermarkConflictError(range.chainDomain, range.expectedLastBlock);
        let written = 0;
        for (const log of range.logs) written += await insertLog(tx, range, log);
        if (written > 0) await markObservation(tx, range);
        return written;
      }),

    async forgetChainHistory(chainDomain) {
      await sql.transaction(async (tx) => {
        for (const table of FACT_TABLES) {
          await tx.query(`DELETE FROM ${table} WHERE chain_domain = $1`, [chainDomain]);
        }
        await tx.query("DELETE FROM chain_watermarks WHERE chain_domain = $1", [chainDomain]);
      });
    },

    async readChainFacts(onchainOrderIds) {
      const facts = new Map<string, ChainFacts>();
      const ids = [...new Set(onchainOrderIds.filter(isStorableText))];
      if (ids.length === 0) return facts;
      const entry = (id: string): ChainFacts => {
        let found = facts.get(id);
        if (!found) {
          found = { onchainOrderId: id, fills: [] };
          facts.set(id, found);
        }
        return found;
      };
      const where = "WHERE onchain_order_id = ANY($1::text[])";
      const [opens, fills, finalisations, refunds] = await Promise.all([
        sql.query<FactRow & { standard_order: unknown }>(
          `SELECT ${factColumns}, standard_order FROM chain_order_opens ${where}`,
          [ids],
        ),
        sql.query<
          FactRow & { solver: string; fill_timestamp: string; output: unknown; final_amount: string }
        >(
          `SELECT ${factColumns}, solver, fill_timestamp::text AS fill_timestamp, output, final_amount::text AS final_amount
           FROM chain_output_fills ${where} ORDER BY chain_domain, block_number, log_index`,
          [ids],
        ),
        sql.query<FactRow & { solver: string; destination: string }>(
          `SELECT ${factColumns}, solver, destination FROM chain_order_finalisations ${where}`,
          [ids],
        ),
        sql.query<FactRow>(`SELECT ${factColumns} FROM chain_order_refunds ${where}`, [ids]),
      ]);
      for (const row of opens) {
        entry(row.onchain_order_id).open = {
          ...factRef(row),
          order: parseJson<StandardOrderRecord>(row.standard_order),
        };
      }
      for (const row of fills) {
        const fill: OutputFilledFact = {
          ...factRef(row),
          solver: row.solver,
          timestamp: Number(row.fill_timestamp),
          output: parseJson<MandateOutputRecord>(row.output),
          finalAmount: row.final_amount,
        };
        entry(row.onchain_order_id).fills.push(fill);
      }
      for (const row of finalisations) {
        entry(row.onchain_order_id).finalised = {
          ...factRef(row),
          solver: row.solver,
          destination: row.destination,
        };
      }
      for (const row of refunds) entry(row.onchain_order_id).refunded = factRef(row);
      return facts;
    },

    async findTransactionEvent(chainDomain, txHash) {
      if (!isStorableText(chainDomain) || !isStorableText(txHash)) return undefined;
      const rows = await sql.query<{ onchain_order_id: string; event: TransactionEvent["event"] }>(
        `SELECT onchain_order_id, event FROM (
           SELECT onchain_order_id, 'open' AS event, log_index FROM chain_order_opens WHERE chain_domain = $1 AND tx_hash = $2
           UNION ALL
           SELECT onchain_order_id, 'fill', log_index FROM chain_output_fills WHERE chain_domain = $1 AND tx_hash = $2
           UNION ALL
           SELECT onchain_order_id, 'settle', log_index FROM chain_order_finalisations WHERE chain_domain = $1 AND tx_hash = $2
           UNION ALL
           SELECT onchain_order_id, 'refund', log_index FROM chain_order_refunds WHERE chain_domain = $1 AND tx_hash = $2
           UNION ALL
           SELECT deposit_id, 'deposit', log_index FROM bridge_deposits WHERE chain_domain = $1 AND tx_hash = $2
           UNION ALL
           SELECT deposit_id, 'release', log_index FROM bridge_releases WHERE chain_domain = $1 AND tx_hash = $2
         ) events ORDER BY log_index LIMIT 1`,
        [chainDomain, txHash],
      );
      const row = rows[0];
      return row ? { onchainOrderId: row.onchain_order_id, event: row.event } : undefined;
    },

    async findBridgeLogs(depositId) {
      if (!isStorableText(depositId)) return { deposit: undefined, releases: [] };
      const [deposits, releases] = await Promise.all([
        sql.query<BridgeLogRow & { destination_chain_id: string }>(
          `SELECT ${bridgeLogColumns}, destination_chain_id::text AS destination_chain_id FROM bridge_deposits
            WHERE deposit_id = $1 ORDER BY block_number, log_index LIMIT 1`,
          [depositId],
        ),
        sql.query<BridgeLogRow>(
          `SELECT ${bridgeLogColumns} FROM bridge_releases WHERE deposit_id = $1 ORDER BY block_number, log_index`,
          [depositId],
        ),
      ]);
      const depositRow = deposits[0];
      return {
        deposit: depositRow && {
          ...bridgeLogOf(depositRow),
          destinationChainId: depositRow.destination_chain_id,
        },
        releases: releases.map(bridgeLogOf),
      };
    },
  };
}
