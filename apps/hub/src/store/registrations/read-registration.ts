import { isStorableText, readJsonColumn, type SqlClient } from "@hub/store";
import type { RegistrableLane } from "../../lanes/lane-table.js";
import { type BridgeLogRecord, type BridgeLogRow, LOG_COLUMNS, logOf } from "./bridge-log-record.js";

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

export async function readRegistration(
  sql: SqlClient,
  orderId: string,
): Promise<OpenFlowRegistration | undefined> {
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
}
