import type { ReservationState } from "@hub/admin";
import type { SqlClient } from "@hub/store";
import type { UpstreamView } from "../../status-rules/upstream-view.js";
import { queryReservation, RESERVATION_COLUMNS, type Reservation } from "./reservation-row.js";
import type { QuoteForSubmission } from "./submission-quote.js";
import { writeFirstView } from "./write-first-view.js";

/** How a forward ended, as written to its own attempt of the reservation. */
export type SettleInput =
  | {
      state: "acked";
      at: Date;
      upstreamOrderId: string;
      onchainOrderId: string;
      onchainOrderIdSource: "upstream" | "verified";
      /** The first upstream view (state created), written in the same transaction. */
      view: UpstreamView;
    }
  | { state: "unknown" | "refused" | "released"; code: string; detail: string };

/** The forwarding attempts of a reservation: the first, a new one after a refusal, and how each ended. */
export interface ReservationAttempts {
  /** Reserves the quote; undefined when a reservation exists already (the caller reads it). */
  reserve(input: {
    hubOrderId: string;
    quote: QuoteForSubmission;
    route: "openfor" | "order";
    requestFingerprint: string;
    at: Date;
  }): Promise<Reservation | undefined>;
  /** Takes a refused or released reservation for a new attempt; undefined when it moved meanwhile. */
  takeForNewAttempt(input: {
    hubOrderId: string;
    fromState: ReservationState;
    fromAttempt: number;
    requestFingerprint: string;
  }): Promise<Reservation | undefined>;
  /**
   * Writes the ending of one attempt; undefined when that attempt no longer holds the row (reconciled).
   * An ack whose on-chain id another submission holds throws the unique violation.
   */
  settle(hubOrderId: string, attempt: number, input: SettleInput): Promise<Reservation | undefined>;
}

function settle(
  sql: SqlClient,
  hubOrderId: string,
  attempt: number,
  input: SettleInput,
): Promise<Reservation | undefined> {
  if (input.state !== "acked") {
    return queryReservation(
      sql,
      `UPDATE submissions SET state = $3, last_code = $4, last_detail = $5
        WHERE hub_order_id = $1 AND attempt = $2 AND state = 'forwarding'
        RETURNING ${RESERVATION_COLUMNS}`,
      [hubOrderId, attempt, input.state, input.code, input.detail.slice(0, 1000)],
    );
  }
  return sql.transaction(async (tx) => {
    const settled = await queryReservation(
      tx,
      `UPDATE submissions
          SET state = 'acked', submitted_at = $3, upstream_order_id = $4, onchain_order_id = $5,
              onchain_order_id_source = $6, last_code = NULL, last_detail = NULL
        WHERE hub_order_id = $1 AND attempt = $2 AND state = 'forwarding'
        RETURNING ${RESERVATION_COLUMNS}`,
      [
        hubOrderId,
        attempt,
        input.at.toISOString(),
        input.upstreamOrderId,
        input.onchainOrderId,
        input.onchainOrderIdSource,
      ],
    );
    if (settled) await writeFirstView(tx, hubOrderId, input.view, input.at);
    return settled;
  });
}

export function createReservationAttempts(sql: SqlClient): ReservationAttempts {
  return {
    reserve: ({ hubOrderId, quote, route, requestFingerprint, at }) =>
      queryReservation(
        sql,
        `INSERT INTO submissions (hub_order_id, quote_id, org_id, subject, route, lane, request_fingerprint,
                                  state, attempt, upstream_provider_id, reserved_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 'forwarding', 1, $8, $9)
         ON CONFLICT DO NOTHING
         RETURNING ${RESERVATION_COLUMNS}`,
        [
          hubOrderId,
          quote.quoteId,
          quote.orgId,
          quote.subject,
          route,
          quote.lane,
          requestFingerprint,
          quote.providerId,
          at.toISOString(),
        ],
      ),

    takeForNewAttempt: ({ hubOrderId, fromState, fromAttempt, requestFingerprint }) =>
      queryReservation(
        sql,
        `UPDATE submissions
            SET state = 'forwarding', attempt = attempt + 1, request_fingerprint = $4
          WHERE hub_order_id = $1 AND state = $2 AND attempt = $3 AND state IN ('refused', 'released')
          RETURNING ${RESERVATION_COLUMNS}`,
        [hubOrderId, fromState, fromAttempt, requestFingerprint],
      ),

    settle: (hubOrderId, attempt, input) => settle(sql, hubOrderId, attempt, input),
  };
}
