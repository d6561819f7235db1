import type { OrderCreateAck, Watermark } from "@hub/contract";
import { isStorableText, isUniqueViolation, readJsonColumn, type SqlClient } from "@hub/store";
import type { RegistrableLane } from "../lanes/lane-table.js";
import type { RegistrationSignature } from "../open-flow/verify-open-flow-signature.js";
import type { QuoteForSubmission } from "./submission-store.js";

export interface NewRegistration {
  hubOrderId: string;
  quote: QuoteForSubmission;
  lane: RegistrableLane;
  /** SHA-256 hex of the canonical body of the registering request. */
  requestFingerprint: string;
  signature: RegistrationSignature | undefined;
  at: Date;
}

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

export interface DepositCandidate extends BridgeLogRecord {
  chainDomain: string;
}

export interface ReleaseLogRecord extends BridgeLogRecord {
  token: string;
  recipient: string;
}

/** An acked POST /order registration with its quote, and the deposit it has claimed while that is indexed. */
export interface OpenFlowRegistration {
  hubOrderId: string;
  quoteId: string;
  organization: string;
  lane: RegistrableLane;
  submittedAt: Date;
  issuedAt: Date;
  /** The quote's stored template, parsed. */
  template: Record<string, unknown>;
  claimedDeposit: BridgeLogRecord | undefined;
}

/** What a Deposited log must carry to be a registration's deposit; addresses and hashes lowercase. */
export interface DepositMatch {
  chainDomain: string;
  ref: string;
  bridge: string;
  token: string;
  amount: string;
  destinationChainId: string;
  recipient: string;
  /** Null matches any depositor. */
  depositor: string | null;
  /** The earliest block timestamp (unix seconds) that counts. */
  notBeforeSeconds: number;
}

/**
 * How a claim ended: set by this call, not set because the order holds a live claim already, or
 * refused because another registration holds the log.
 */
export type DepositClaim = "claimed" | "already-claimed" | "taken";

/** Open-flow registrations (POST /order) and what their status view reads and claims of the bridge logs. */
export interface OpenFlowStore {
  /**
   * Records the order in one statement (one transaction): the acked submissions row (route 'order') and
   * its registration. The quote's unique submission decides a race: the loser writes nothing and gets
   * the winner's ack (`created` false).
   */
  register(input: NewRegistration): Promise<{ created: boolean; ack: OrderCreateAck }>;
  /** The acked registration, or undefined for any id that is not one (openFor orders included). */
  readRegistration(orderId: string): Promise<OpenFlowRegistration | undefined>;
  /** The Deposited log this registration has claimed, while the log is still indexed. */
  readClaimedDeposit(orderId: string): Promise<BridgeLogRecord | undefined>;
  /** The first matching Deposited log, by (block, log index), that no registration holds. */
  findUnclaimedDeposit(match: DepositMatch): Promise<DepositCandidate | undefined>;
  /**
   * Claims the candidate for this order, only while the order has no live claim (concurrent readers of
   * one order claim once). The UNIQUE claim refuses a log another order took since it was selected.
   */
  claimDeposit(orderId: string, candidate: DepositCandidate, at: Date): Promise<DepositClaim>;
  /** The first Released log on the chain that carries the deposit id. */
  findRelease(chainDomain: string, depositId: string): Promise<ReleaseLogRecord | undefined>;
  /** The observation marks of the chain domains that have one, in the order asked. */
  listObservationMarks(chainDomains: string[]): Promise<Watermark[]>;
}

interface AckRow {
  hub_order_id: string;
  quote_id: string;
  state: string;
  submitted_at: Date | string | null;
}

function ackOf(row: AckRow): OrderCreateAck {
  if (row.state !== "acked" || row.submitted_at === null) {
    throw new Error(`the submission of quote ${row.quote_id} is ${row.state}, not an order`);
  }
  return {
    orderId: row.hub_order_id,
    quoteId: row.quote_id,
    createdAt: new Date(row.submitted_at).toISOString(),
  };
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

interface MarkRow {
  chain_domain: string;
  last_block: string;
  updated_at: Date | string;
}

const LOG_COLUMNS = `d.tx_hash, d.log_index, d.block_number::text AS block_number, d.block_hash,
  d.block_timestamp::text AS block_timestamp, d.deposit_id, d.amount::text AS amount, d.observed_at`;

function logOf(row: BridgeLogRow): BridgeLogRecord {
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

export function createOpenFlowStore(sql: SqlClient): OpenFlowStore {
  return {
    async register({ hubOrderId, quote, lane, requestFingerprint, signature, at }) {
      // One statement, so one transaction and one round trip: the registration row is written only
      // beside a submissions row this statement inserted.
      const [row] = await sql.query<AckRow>(
        `WITH submission AS (
           INSERT INTO submissions (hub_order_id, quote_id, org_id, subject, route, lane, request_fingerprint,
                                    state, attempt, upstream_provider_id, reserved_at, submitted_at)
           VALUES ($1, $2, $3, $4, 'order', $5, $6, 'acked', 1, $7, $8, $8)
           ON CONFLICT DO NOTHING
           RETURNING hub_order_id, quote_id, state, submitted_at
         ), registration AS (
           INSERT INTO open_flow_registrations (hub_order_id, quote_id, lane, signer, scheme, signature, registered_at)
           SELECT hub_order_id, quote_id, $5, $9::text, $10::text, $11::text, $8 FROM submission
         )
         SELECT hub_order_id, quote_id, state, submitted_at FROM submission`,
        [
          hubOrderId,
          quote.quoteId,
          quote.orgId,
          quote.subject,
          lane,
          requestFingerprint,
          quote.providerId,
          at.toISOString(),
          signature?.signer ?? null,
          signature?.scheme ?? null,
          signature?.signature ?? null,
        ],
      );
      if (row) return { created: true, ack: ackOf(row) };
      // Another registration holds the quote: its statement has committed (ON CONFLICT waits for it).
      const [existing] = await sql.query<AckRow>(
        "SELECT hub_order_id, quote_id, state, submitted_at FROM submissions WHERE quote_id = $1",
        [quote.quoteId],
      );
      if (!existing)
        throw new Error(`quote ${quote.quoteId}: the submission conflicted and then was not found`);
      return { created: false, ack: ackOf(existing) };
    },

    async readRegistration(orderId) {
      if (!isStorableText(orderId)) return undefined;
      const [row] = await sql.query<RegistrationRow & BridgeLogRow>(
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
      if (!row) return undefined;
      return {
        hubOrderId: row.hub_order_id,
        quoteId: row.quote_id,
        organization: row.org_id,
        lane: row.lane,
        submittedAt: new Date(row.submitted_at),
        issuedAt: new Date(row.issued_at),
        template: readJsonColumn(row.template),
        claimedDeposit: row.claimed_tx_hash === null ? undefined : logOf(row),
      };
    },

    async readClaimedDeposit(orderId) {
      const rows = await sql.query<BridgeLogRow>(
        `SELECT ${LOG_COLUMNS} FROM open_flow_registrations r
           JOIN bridge_deposits d ON d.chain_domain = r.deposit_chain_domain AND d.tx_hash = r.deposit_tx_hash
                                 AND d.log_index = r.deposit_log_index
          WHERE r.hub_order_id = $1`,
        [orderId],
      );
      return rows[0] && logOf(rows[0]);
    },

    async findUnclaimedDeposit(match) {
      const rows = await sql.query<BridgeLogRow & { chain_domain: string }>(
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
          match.chainDomain,
          match.ref,
          match.bridge,
          match.token,
          match.amount,
          match.destinationChainId,
          match.recipient,
          match.depositor,
          String(match.notBeforeSeconds),
        ],
      );
      const row = rows[0];
      return row && { chainDomain: row.chain_domain, ...logOf(row) };
    },

    async claimDeposit(orderId, candidate, at) {
      try {
        const rows = await sql.query<{ hub_order_id: string }>(
          `UPDATE open_flow_registrations r
              SET deposit_chain_domain = $2, deposit_tx_hash = $3, deposit_log_index = $4, deposit_claimed_at = $5
            WHERE r.hub_order_id = $1
              AND (r.deposit_tx_hash IS NULL OR NOT EXISTS (
                    SELECT 1 FROM bridge_deposits g
                     WHERE g.chain_domain = r.deposit_chain_domain AND g.tx_hash = r.deposit_tx_hash
                       AND g.log_index = r.deposit_log_index))
           RETURNING r.hub_order_id`,
          [orderId, candidate.chainDomain, candidate.txHash, candidate.logIndex, at.toISOString()],
        );
        return rows.length > 0 ? "claimed" : "already-claimed";
      } catch (error) {
        if (isUniqueViolation(error, "open_flow_registrations_deposit_claim_once")) return "taken";
        throw error;
      }
    },

    async findRelease(chainDomain, depositId) {
      const rows = await sql.query<BridgeLogRow & { token: string; recipient: string }>(
        `SELECT ${LOG_COLUMNS}, d.token, d.recipient FROM bridge_releases d
          WHERE d.chain_domain = $1 AND d.deposit_id = $2
          ORDER BY d.block_number, d.log_index LIMIT 1`,
        [chainDomain, depositId],
      );
      const row = rows[0];
      return row && { ...logOf(row), token: row.token, recipient: row.recipient };
    },

    async listObservationMarks(chainDomains) {
      const rows = await sql.query<MarkRow>(
        `SELECT chain_domain, last_block::text AS last_block, updated_at
           FROM chain_observation_marks WHERE chain_domain = ANY($1::text[])`,
        [chainDomains],
      );
      const byDomain = new Map(rows.map((row) => [row.chain_domain, row]));
      return chainDomains.flatMap((chainDomain) => {
        const row = byDomain.get(chainDomain);
        return row
          ? [
              {
                chainDomain,
                blockNumber: Number(row.last_block),
                observedAt: new Date(row.updated_at).toISOString(),
              },
            ]
          : [];
      });
    },
  };
}
