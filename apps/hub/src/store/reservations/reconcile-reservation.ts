import { isUniqueViolation, type SqlClient, type SqlExecutor } from "@hub/store";
import type { UpstreamView } from "../../status-rules/upstream-view.js";
import { queryReservation, RESERVATION_COLUMNS, type Reservation } from "./reservation-row.js";
import { writeFirstView } from "./write-first-view.js";

/** What an operator found out about a forward whose outcome was not known. */
export type ReconcileFinding =
  | { opened: true; onchainOrderId: string; source: "upstream" | "verified"; view: UpstreamView }
  | { opened: false };

export type ReconcileResult =
  | { kind: "done"; reservation: Reservation }
  | { kind: "not-found" }
  | { kind: "not-pending"; reservation: Reservation }
  | { kind: "onchain-id-taken" };

export interface ReconcileInput {
  hubOrderId: string;
  finding: ReconcileFinding;
  note: string | undefined;
  at: Date;
}

/** Moves a forwarding or unknown reservation to what the finding says; undefined when it is neither. */
function settleByFinding(tx: SqlExecutor, { hubOrderId, finding, note, at }: ReconcileInput) {
  return finding.opened
    ? queryReservation(
        tx,
        `UPDATE submissions
            SET state = 'acked', submitted_at = $2, upstream_order_id = $3, onchain_order_id = $4,
                onchain_order_id_source = $5, reconciled_at = $2, reconciled_note = $6,
                attempt = attempt + 1
          WHERE hub_order_id = $1 AND state IN ('forwarding', 'unknown')
          RETURNING ${RESERVATION_COLUMNS}`,
        [
          hubOrderId,
          at.toISOString(),
          finding.onchainOrderId.slice(2),
          finding.onchainOrderId,
          finding.source,
          note ?? null,
        ],
      )
    : queryReservation(
        tx,
        `UPDATE submissions
            SET state = 'released', reconciled_at = $2, reconciled_note = $3, attempt = attempt + 1
          WHERE hub_order_id = $1 AND state IN ('forwarding', 'unknown')
          RETURNING ${RESERVATION_COLUMNS}`,
        [hubOrderId, at.toISOString(), note ?? null],
      );
}

/** Settles a forwarding or unknown reservation by an operator's finding, in one transaction. */
export async function reconcileReservation(sql: SqlClient, input: ReconcileInput): Promise<ReconcileResult> {
  const { hubOrderId, finding, at } = input;
  try {
    return await sql.transaction(async (tx): Promise<ReconcileResult> => {
      const reconciled = await settleByFinding(tx, input);
      if (reconciled) {
        if (finding.opened) await writeFirstView(tx, hubOrderId, finding.view, at);
        return { kind: "done", reservation: reconciled };
      }
      const current = await queryReservation(
        tx,
        `SELECT ${RESERVATION_COLUMNS} FROM submissions WHERE hub_order_id = $1`,
        [hubOrderId],
      );
      return current ? { kind: "not-pending", reservation: current } : { kind: "not-found" };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { kind: "onchain-id-taken" };
    throw error;
  }
}
