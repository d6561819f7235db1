import {
  addressToBytes32,
  type MandateOutput,
  solanaEscrowOrderId,
  solanaKeyToBytes32,
  solanaOutputHash,
} from "@hub/chain";
import type { OnchainTxOrder } from "@hub/contract";
import { inJsonbKeyOrder, isStorableText, type SqlClient, type SqlExecutor } from "@hub/store";
import type { BridgeLog, ChainBlock, OrderLog } from "../reconciler/chain-reader.js";
import type { SolanaOrderFact } from "../reconciler/read-solana-order-fact.js";
import type {
  ChainFacts,
  ChainLogRef,
  MandateOutputRecord,
  OutputFilledFact,
  SolanaDepositFact,
  SolanaOrderTerms,
  StandardOrderRecord,
} from "../status-rules/index.js";

/** How far the reconciler has indexed one chain: every block up to lastBlock, inclusive. */
export interface ChainWatermark {
  chainDomain: string;
  /** 0 on a Solana chain, which has no EVM chain id. */
  chainId: number;
  /** The chain id OIF outputs name it by: the EVM chain id, or a Solana chain's genesis hash as a uint256. */
  oifChainId: string;
  /** The last block (a Solana chain: the slot read before its addresses were caught up). */
  lastBlock: number;
  /** The last block's hash; on a Solana chain its genesis hash (0x hex), which never changes. */
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
  /** The newest signature processed of one watched Solana address, or undefined when never read. */
  getSolanaAddressWatermark(
    chainDomain: string,
    address: string,
  ): Promise<SolanaAddressWatermark | undefined>;
  /**
   * Writes the facts of a run of an address's history (processed oldest first) and moves that address's
   * watermark to the run's newest signature, in one transaction: only from the value the run was read
   * from and while this holder has the lease, otherwise WatermarkConflictError and nothing written.
   */
  writeSolanaBatch(batch: SolanaBatch): Promise<number>;
  /**
   * EVM orders opened with an output on this Solana chain (by its OIF chain id) that have no indexed
   * Solana fill, are neither settled nor refunded, and whose fillDeadline is at or after `since`
   * (unix seconds): the newest `limit` of them, each with its output's recipient and token.
   */
  awaitingSolanaFills(
    oifChainId: string,
    since: number,
    limit: number,
  ): Promise<Array<{ onchainOrderId: string; recipient: string; token: string; openedAt: number }>>;
}

export interface SolanaAddressWatermark {
  lastSignature: string;
  lastSlot: number;
}

export interface SolanaBatch {
  chainDomain: string;
  /** The chain's genesis hash as 0x hex (what its observation mark carries as block hash). */
  genesisHex: string;
  address: string;
  /** The address's watermark the run was read from; null when it was never read. */
  expectedSignature: string | null;
  last: { signature: string; slot: number; blockTime: number };
  facts: readonly SolanaOrderFact[];
  observedAt: Date;
  lease: { name: string; holder: string };
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
    oifChainId: row.chain_domain.startsWith("solana:")
      ? BigInt(row.last_block_hash).toString()
      : row.chain_id,
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
  "solana_order_facts",
  "solana_address_watermarks",
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

const solanaLeaseHeld = `EXISTS (SELECT 1 FROM reconciler_leases
  WHERE name = $5 AND holder = $6 AND expires_at > now())`;

async function moveSolanaAddressWatermark(tx: SqlExecutor, batch: SolanaBatch): Promise<boolean> {
  const params = [
    batch.chainDomain,
    batch.address,
    batch.last.signature,
    batch.last.slot,
    batch.lease.name,
    batch.lease.holder,
    batch.observedAt.toISOString(),
  ];
  const rows =
    batch.expectedSignature === null
      ? await tx.query(
          `INSERT INTO solana_address_watermarks (chain_domain, address, last_signature, last_slot, updated_at)
           SELECT $1::text, $2::text, $3::text, $4::bigint, $7::timestamptz WHERE ${solanaLeaseHeld}
           ON CONFLICT (chain_domain, address) DO NOTHING RETURNING address`,
          params,
        )
      : await tx.query(
          `UPDATE solana_address_watermarks SET last_signature = $3, last_slot = $4, updated_at = $7
           WHERE chain_domain = $1 AND address = $2 AND last_signature = $8 AND ${solanaLeaseHeld}
           RETURNING address`,
          [...params, batch.expectedSignature],
        );
  return rows.length === 1;
}

async function insertSolanaFact(tx: SqlExecutor, batch: SolanaBatch, fact: SolanaOrderFact): Promise<number> {
  const rows = await tx.query(
    `INSERT INTO solana_order_facts (chain_domain, signature, kind, onchain_order_id, slot, block_time,
       instruction_index, mint, amount, authority, destination, destination_owner, evm_solver, output, observed_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::numeric, $10, $11, $12, $13, $14::jsonb, $15)
     ON CONFLICT (chain_domain, signature) DO NOTHING RETURNING 1 AS written`,
    [
      batch.chainDomain,
      fact.signature,
      fact.kind,
      fact.onchainOrderId,
      fact.slot,
      fact.blockTime,
      fact.instructionIndex,
      fact.mint,
      fact.amount,
      fact.authority,
      fact.destination,
      fact.destinationOwner,
      fact.evmSolver ?? null,
      fact.output ? JSON.stringify(fact.output) : null,
      batch.observedAt.toISOString(),
    ],
  );
  return rows.length;
}

interface SolanaFactRow {
  onchain_order_id: string;
  chain_domain: string;
  signature: string;
  kind: SolanaOrderFact["kind"];
  slot: string;
  block_time: string;
  instruction_index: number;
  mint: string;
  amount: string;
  authority: string;
  destination: string;
  destination_owner: string;
  evm_solver: string | null;
  output_settler: string | null;
  output: unknown;
}

function solanaRef(row: SolanaFactRow): ChainLogRef {
  return {
    chainDomain: row.chain_domain,
    blockNumber: Number(row.slot),
    blockHash: "",
    blockTimestamp: new Date(Number(row.block_time) * 1000).toISOString(),
    txHash: row.signature,
    logIndex: row.instruction_index,
  };
}

function mandateOutputOf(output: MandateOutputRecord): MandateOutput {
  return {
    oracle: output.oracle as `0x${string}`,
    settler: output.settler as `0x${string}`,
    chainId: BigInt(output.chainId),
    token: output.token as `0x${string}`,
    amount: BigInt(output.amount),
    recipient: output.recipient as `0x${string}`,
    callbackData: output.callbackData as `0x${string}`,
    context: output.context as `0x${string}`,
  };
}

function hex32OfKey(key: string): string {
  try {
    return solanaKeyToBytes32(key);
  } catch {
    return `0x${"0".repeat(64)}`;
  }
}

/**
 * The terms of a Solana escrow order from the hub's own quote, kept only when they hash to the order
 * id (sha256 over user, mint, amount, expires, outputHash) and the output to outputHash: the id
 * commits to them, so terms from the quote are the terms the deposit was made under.
 */
function solanaTermsOf(onchainOrderId: string, payload: unknown): SolanaOrderTerms | undefined {
  try {
    const p = payload as {
      escrowOrder: { user: string; mint: string; amount: string; expires: number; outputHash: `0x${string}` };
      fillDeadline: number;
      output: MandateOutputRecord;
    };
    const { escrowOrder, fillDeadline, output } = p;
    const id = solanaEscrowOrderId({ ...escrowOrder, amount: BigInt(escrowOrder.amount) });
    if (id !== onchainOrderId) return undefined;
    if (solanaOutputHash(fillDeadline, mandateOutputOf(output)) !== escrowOrder.outputHash.toLowerCase())
      return undefined;
    return {
      user: escrowOrder.user,
      mint: escrowOrder.mint,
      amount: escrowOrder.amount,
      expires: escrowOrder.expires,
      fillDeadline,
      output: { ...output },
    };
  } catch {
    return undefined;
  }
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
      const [opens, fills, finalisations, refunds, solana, solanaQuotes] = await Promise.all([
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
        sql.query<SolanaFactRow>(
          `SELECT onchain_order_id, chain_domain, signature, kind, slot::text AS slot, block_time::text AS block_time,
             instruction_index, mint, amount::text AS amount, authority, destination, destination_owner, evm_solver,
             output->>'settler' AS output_settler, output
           FROM solana_order_facts ${where} ORDER BY chain_domain, slot, signature`,
          [ids],
        ),
        sql.query<{ onchain_order_id: string; payload: unknown }>(
          `SELECT DISTINCT ON (onchain_order_id) onchain_order_id, template->'quoteResponse'->'order'->'payload' AS payload
           FROM quotes WHERE onchain_order_id = ANY($1::text[]) AND lane = 'oif-escrow-nonevm'
           ORDER BY onchain_order_id, issued_at`,
          [ids],
        ),
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
      const terms = new Map(solanaQuotes.map((row) => [row.onchain_order_id, inJsonbKeyOrder(row.payload)]));
      for (const row of solana) {
        const found = entry(row.onchain_order_id);
        const ref = solanaRef(row);
        // The escrow honours the first deposit, release or refund of an order; later ones change nothing.
        if (row.kind === "deposit" && !found.solanaDeposit) {
          const deposit: SolanaDepositFact = {
            ...ref,
            settler: row.destination_owner,
            vault: row.destination,
            user: row.authority,
            mint: row.mint,
            amount: row.amount,
          };
          const known = solanaTermsOf(row.onchain_order_id, terms.get(row.onchain_order_id));
          if (known) deposit.terms = known;
          found.solanaDeposit = deposit;
        } else if (row.kind === "release" && !found.finalised) {
          found.finalised = {
            ...ref,
            settler: row.authority,
            solver: hex32OfKey(row.destination_owner),
            destination: row.destination,
          };
        } else if (row.kind === "refund" && !found.refunded) {
          found.refunded = { ...ref, settler: row.authority };
        } else if (row.kind === "fill" && row.evm_solver) {
          found.fills.push({
            ...ref,
            settler: row.output_settler ?? "",
            solver: addressToBytes32(row.evm_solver as `0x${string}`),
            timestamp: Number(row.block_time),
            output: parseJson<MandateOutputRecord>(row.output),
            finalAmount: row.amount,
          });
        }
      }
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
           UNION ALL
           SELECT onchain_order_id,
                  CASE kind WHEN 'deposit' THEN 'open' WHEN 'release' THEN 'settle' ELSE kind END,
                  instruction_index
             FROM solana_order_facts WHERE chain_domain = $1 AND signature = $2
         ) events ORDER BY log_index LIMIT 1`,
        [chainDomain, txHash],
      );
      const row = rows[0];
      return row ? { onchainOrderId: row.onchain_order_id, event: row.event } : undefined;
    },

    async getSolanaAddressWatermark(chainDomain, address) {
      const rows = await sql.query<{ last_signature: string; last_slot: string }>(
        `SELECT last_signature, last_slot::text AS last_slot FROM solana_address_watermarks
         WHERE chain_domain = $1 AND address = $2`,
        [chainDomain, address],
      );
      const row = rows[0];
      return row && { lastSignature: row.last_signature, lastSlot: Number(row.last_slot) };
    },

    writeSolanaBatch: (batch) =>
      sql.transaction(async (tx) => {
        if (!(await moveSolanaAddressWatermark(tx, batch)))
          throw new WatermarkConflictError(`${batch.chainDomain} ${batch.address}`, null);
        let written = 0;
        for (const fact of batch.facts) written += await insertSolanaFact(tx, batch, fact);
        if (written > 0) {
          await markObservation(tx, {
            chainDomain: batch.chainDomain,
            chainId: 0,
            expectedLastBlock: null,
            toBlock: { number: batch.last.slot, hash: batch.genesisHex, timestamp: batch.last.blockTime },
            logs: [],
            blockTimestamps: new Map(),
            observedAt: batch.observedAt,
            lease: batch.lease,
          });
        }
        return written;
      }),

    async awaitingSolanaFills(oifChainId, since, limit) {
      const rows = await sql.query<{
        onchain_order_id: string;
        recipient: string;
        token: string;
        block_timestamp: string;
      }>(
        `SELECT o.onchain_order_id, output->>'recipient' AS recipient, output->>'token' AS token,
                o.block_timestamp::text AS block_timestamp
         FROM chain_order_opens o, jsonb_array_elements(o.standard_order->'outputs') AS output
         WHERE output->>'chainId' = $1 AND o.fill_deadline >= $2
           AND NOT EXISTS (SELECT 1 FROM solana_order_facts f WHERE f.onchain_order_id = o.onchain_order_id AND f.kind = 'fill')
           AND NOT EXISTS (SELECT 1 FROM chain_order_finalisations f WHERE f.onchain_order_id = o.onchain_order_id)
           AND NOT EXISTS (SELECT 1 FROM chain_order_refunds r WHERE r.onchain_order_id = o.onchain_order_id)
         ORDER BY o.block_timestamp DESC, o.onchain_order_id LIMIT $3`,
        [oifChainId, since, limit],
      );
      return rows.map((row) => ({
        onchainOrderId: row.onchain_order_id,
        recipient: row.recipient,
        token: row.token,
        openedAt: Number(row.block_timestamp),
      }));
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
