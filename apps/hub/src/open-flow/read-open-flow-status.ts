import type { HubOrderStatus, ReleaseMismatch, Watermark } from "@hub/contract";
import { isUniqueViolation, type SqlExecutor } from "@hub/store";
import { laneTable, type RegistrableLane } from "../lanes/lane-table.js";
import {
  isOpenFlowTemplate,
  type OpenFlowDeposit,
  type OpenFlowTemplate,
} from "../quotes/external/open-flow-template.js";

interface RegistrationRow {
  hub_order_id: string;
  quote_id: string;
  org_id: string;
  lane: RegistrableLane;
  submitted_at: Date | string;
  issued_at: Date | string;
  template: Record<string, unknown> | string;
  /** The claimed deposit's log, read in the same statement; null columns while nothing is claimed. */
  claimed_tx_hash: string | null;
}

interface BridgeLogRow {
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_hash: string;
  block_timestamp: string;
  deposit_id: string;
  amount: string;
  observed_at: Date | string;
}

interface ReleaseRow extends BridgeLogRow {
  token: string;
  recipient: string;
}

interface MarkRow {
  chain_domain: string;
  last_block: string;
  updated_at: Date | string;
}

/** An open-flow registration's status view, with the organization it belongs to. */
export interface OpenFlowStatus {
  organization: string;
  status: HubOrderStatus;
}

/**
 * Block times are whole seconds set by the block producer, not the hub's clock: a deposit may be
 * stamped this much before the quote's issue time and still be the quote's.
 */
export const DEPOSIT_CLOCK_SKEW_SECONDS = 60;

/** Claim attempts per read: each lost race (another order took the log) leaves one candidate fewer. */
const CLAIM_ATTEMPTS = 5;

const LOG_COLUMNS = `d.tx_hash, d.log_index, d.block_number::text AS block_number, d.block_hash,
  d.block_timestamp::text AS block_timestamp, d.deposit_id, d.amount::text AS amount, d.observed_at`;

const ERC20_ASSET = /^eip155:[0-9]+\/erc20:(0x[0-9a-fA-F]{40})$/;

const iso = (value: Date | string) => new Date(value).toISOString();

function observedTransaction(chainDomain: string, row: BridgeLogRow) {
  return {
    chainDomain,
    txHash: row.tx_hash,
    blockNumber: Number(row.block_number),
    blockHash: row.block_hash,
    logIndex: Number(row.log_index),
    at: new Date(Number(row.block_timestamp) * 1000).toISOString(),
    amount: row.amount,
  };
}

/** The Deposited log this registration has claimed, while the log is still indexed. */
async function readClaimedDeposit(sql: SqlExecutor, orderId: string): Promise<BridgeLogRow | undefined> {
  const rows = await sql.query<BridgeLogRow>(
    `SELECT ${LOG_COLUMNS} FROM open_flow_registrations r
       JOIN bridge_deposits d ON d.chain_domain = r.deposit_chain_domain AND d.tx_hash = r.deposit_tx_hash
                             AND d.log_index = r.deposit_log_index
      WHERE r.hub_order_id = $1`,
    [orderId],
  );
  return rows[0];
}

interface CandidateRow extends BridgeLogRow {
  chain_domain: string;
}

/** The first matching Deposited log no other registration holds (a read: most refreshes find none). */
async function firstCandidate(
  sql: SqlExecutor,
  template: OpenFlowTemplate,
  deposit: OpenFlowDeposit,
  notBeforeSeconds: number,
): Promise<CandidateRow | undefined> {
  const rows = await sql.query<CandidateRow>(
    `SELECT d.chain_domain, ${LOG_COLUMNS} FROM bridge_deposits d
      WHERE d.chain_domain = $1 AND d.ref = $2 AND d.bridge = $3 AND d.token = $4 AND d.amount = $5::numeric
        AND d.destination_chain_id = $6::numeric AND d.recipient = $7
        AND ($8::text IS NULL OR d.depositor = $8) AND d.block_timestamp >= $9::bigint
        AND NOT EXISTS (
          SELECT 1 FROM open_flow_registrations o
           WHERE o.deposit_chain_domain = d.chain_domain AND o.deposit_tx_hash = d.tx_hash
             AND o.deposit_log_index = d.log_index)
      ORDER BY d.block_number, d.log_index LIMIT 1`,
    [
      template.source.chainDomain,
      deposit.ref.toLowerCase(),
      deposit.bridge.toLowerCase(),
      deposit.token.toLowerCase(),
      deposit.amount,
      String(deposit.destinationChainId),
      deposit.recipient.toLowerCase(),
      template.sourceAccount?.toLowerCase() ?? null,
      String(notBeforeSeconds),
    ],
  );
  return rows[0];
}

/**
 * Claims the candidate for this order, only while the order has no live claim (concurrent readers of
 * one order claim once). The UNIQUE claim refuses a log another order took since it was selected.
 * Whether this read set the claim.
 */
async function claim(sql: SqlExecutor, orderId: string, candidate: CandidateRow, at: Date): Promise<boolean> {
  const rows = await sql.query<{ hub_order_id: string }>(
    `UPDATE open_flow_registrations r
        SET deposit_chain_domain = $2, deposit_tx_hash = $3, deposit_log_index = $4, deposit_claimed_at = $5
      WHERE r.hub_order_id = $1
        AND (r.deposit_tx_hash IS NULL OR NOT EXISTS (
              SELECT 1 FROM bridge_deposits g
               WHERE g.chain_domain = r.deposit_chain_domain AND g.tx_hash = r.deposit_tx_hash
                 AND g.log_index = r.deposit_log_index))
     RETURNING r.hub_order_id`,
    [orderId, candidate.chain_domain, candidate.tx_hash, candidate.log_index, at.toISOString()],
  );
  return rows.length > 0;
}

/**
 * The registration's deposit: the one it claimed (read with the registration), else the first matching log no other registration
 * holds, claimed now. A claim whose log is no longer indexed (the chain's history was forgotten) is
 * replaced by the next match.
 */
async function depositOf(
  sql: SqlExecutor,
  orderId: string,
  template: OpenFlowTemplate,
  issuedAt: Date,
  at: Date,
  claimed: BridgeLogRow | undefined,
): Promise<BridgeLogRow | undefined> {
  const { deposit } = template;
  if (!deposit) return undefined;
  if (claimed) return claimed;
  const notBeforeSeconds = Math.floor(issuedAt.getTime() / 1000) - DEPOSIT_CLOCK_SKEW_SECONDS;
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt += 1) {
    // A refresh with nothing to claim stays a read; the write happens once, when a deposit appears.
    const candidate = await firstCandidate(sql, template, deposit, notBeforeSeconds);
    if (!candidate) return undefined;
    try {
      // Not set here: a concurrent reader of this order claimed first.
      return (await claim(sql, orderId, candidate, at)) ? candidate : await readClaimedDeposit(sql, orderId);
    } catch (error) {
      if (!isUniqueViolation(error, "open_flow_registrations_deposit_claim_once")) throw error;
    }
  }
  // Every attempt lost a race to another order: the next read tries again.
  return undefined;
}

/** The first Released log on the destination chain that carries the deposit's id. */
async function findRelease(
  sql: SqlExecutor,
  chainDomain: string,
  depositId: string,
): Promise<ReleaseRow | undefined> {
  const rows = await sql.query<ReleaseRow>(
    `SELECT ${LOG_COLUMNS}, d.token, d.recipient FROM bridge_releases d
      WHERE d.chain_domain = $1 AND d.deposit_id = $2
      ORDER BY d.block_number, d.log_index LIMIT 1`,
    [chainDomain, depositId],
  );
  return rows[0];
}

/**
 * How a release differs from the quote: it must pay the quote's recipient the destination asset's
 * token, at least the quoted output amount. Undefined when it does not differ.
 */
function releaseMismatch(template: OpenFlowTemplate, release: ReleaseRow): ReleaseMismatch | undefined {
  const token = ERC20_ASSET.exec(template.destination.asset)?.[1]?.toLowerCase();
  const fields: ReleaseMismatch["fields"] = [];
  if (release.recipient !== template.recipient.toLowerCase()) fields.push("recipient");
  if (release.token !== token) fields.push("token");
  if (BigInt(release.amount) < BigInt(template.destination.amount)) fields.push("amount");
  if (fields.length === 0) return undefined;
  return {
    fields,
    reason:
      `The release paid ${release.amount} of token ${release.token} to ${release.recipient}; the quote ` +
      `disclosed at least ${template.destination.amount} of ${token ?? template.destination.asset} to ` +
      `${template.recipient.toLowerCase()}.`,
  };
}

async function observationMarks(sql: SqlExecutor, chainDomains: string[]): Promise<Watermark[]> {
  const rows = await sql.query<MarkRow>(
    `SELECT chain_domain, last_block::text AS last_block, updated_at
       FROM chain_observation_marks WHERE chain_domain = ANY($1::text[])`,
    [chainDomains],
  );
  const byDomain = new Map(rows.map((row) => [row.chain_domain, row]));
  return chainDomains.flatMap((chainDomain) => {
    const row = byDomain.get(chainDomain);
    return row ? [{ chainDomain, blockNumber: Number(row.last_block), observedAt: iso(row.updated_at) }] : [];
  });
}

/**
 * Builds GET /status/{orderId} from the database: the POST /order registration, its quote's template,
 * and what the reconciler recorded. The deposit is the one the registration claimed (claimed here, at
 * `at`, on the first read that finds a match: see depositOf); the release is the first on the
 * destination chain with the deposit's id, and reads mismatched when it did not pay what the quote
 * disclosed. Undefined for any id that is not an open-flow registration (openFor orders included).
 */
export async function readOpenFlowStatus(
  sql: SqlExecutor,
  orderId: string,
  at: Date,
): Promise<OpenFlowStatus | undefined> {
  const [registration] = await sql.query<RegistrationRow & BridgeLogRow>(
    `SELECT s.hub_order_id, s.quote_id, s.org_id, r.lane, s.submitted_at, q.issued_at, q.template,
            d.tx_hash AS claimed_tx_hash, ${LOG_COLUMNS}
       FROM open_flow_registrations r
       JOIN submissions s ON s.hub_order_id = r.hub_order_id
       JOIN quotes q ON q.quote_id = r.quote_id
       LEFT JOIN bridge_deposits d ON d.chain_domain = r.deposit_chain_domain
                                  AND d.tx_hash = r.deposit_tx_hash AND d.log_index = r.deposit_log_index
      WHERE r.hub_order_id = $1 AND s.state = 'acked'`,
    [orderId],
  );
  if (!registration) return undefined;
  const createdAt = iso(registration.submitted_at);
  const base = {
    orderId: registration.hub_order_id,
    quoteId: registration.quote_id,
    lane: registration.lane,
    createdAt,
  };
  const template =
    typeof registration.template === "string" ? JSON.parse(registration.template) : registration.template;
  if (laneTable[registration.lane].statusView === "hub-recorded" || !isOpenFlowTemplate(template)) {
    return {
      organization: registration.org_id,
      status: { ...base, state: "recorded", final: true, watermarks: [], updatedAt: createdAt },
    };
  }
  const source = template.source.chainDomain;
  const destination = template.destination.chainDomain;
  const claimed = registration.claimed_tx_hash === null ? undefined : registration;
  const deposit = await depositOf(sql, orderId, template, new Date(registration.issued_at), at, claimed);
  const release = deposit && (await findRelease(sql, destination, deposit.deposit_id));
  const mismatch = release && releaseMismatch(template, release);
  const watermarks = await observationMarks(sql, source === destination ? [source] : [source, destination]);
  // A deposit indexed before the registration arrived changed nothing after createdAt.
  const createdAtMs = Date.parse(createdAt);
  const later = (observedAt: Date | string) =>
    new Date(Math.max(new Date(observedAt).getTime(), createdAtMs)).toISOString();
  const status: HubOrderStatus = release
    ? {
        ...base,
        state: mismatch ? "mismatched" : "released",
        final: true,
        updatedAt: later(release.observed_at),
        watermarks,
      }
    : deposit
      ? { ...base, state: "deposited", final: false, updatedAt: later(deposit.observed_at), watermarks }
      : { ...base, state: "registered", final: false, updatedAt: createdAt, watermarks };
  if (deposit) {
    status.depositId = deposit.deposit_id;
    status.sourceTx = observedTransaction(source, deposit);
  }
  if (release) status.destinationTx = observedTransaction(destination, release);
  if (mismatch) status.releaseMismatch = mismatch;
  return { organization: registration.org_id, status };
}
