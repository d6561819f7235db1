import { isUniqueViolation, type SqlClient } from "@hub/store";
import { type BridgeLogRecord, type BridgeLogRow, LOG_COLUMNS, logOf } from "./bridge-log-record.js";

export interface DepositCandidate extends BridgeLogRecord {
  chainDomain: string;
}

export interface ReleaseLogRecord extends BridgeLogRecord {
  token: string;
  recipient: string;
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

/** What a registration's status view reads and claims of the bridge logs. */
export interface DepositClaims {
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
}

async function findUnclaimedDeposit(
  sql: SqlClient,
  match: DepositMatch,
): Promise<DepositCandidate | undefined> {
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
}

async function claimDeposit(
  sql: SqlClient,
  orderId: string,
  candidate: DepositCandidate,
  at: Date,
): Promise<DepositClaim> {
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
}

export function createDepositClaims(sql: SqlClient): DepositClaims {
  return {
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
    findUnclaimedDeposit: (match) => findUnclaimedDeposit(sql, match),
    claimDeposit: (orderId, candidate, at) => claimDeposit(sql, orderId, candidate, at),
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
  };
}
