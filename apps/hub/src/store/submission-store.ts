import type { ReservationState } from "@hub/admin";
import type { SqlClient } from "@hub/store";
import {
  type ReconcileFinding,
  type ReconcileResult,
  reconcileReservation,
} from "./reservations/reconcile-reservation.js";
import { createReservationAttempts, type ReservationAttempts } from "./reservations/reservation-attempts.js";
import {
  queryReservation,
  queryReservations,
  RESERVATION_COLUMNS,
  type Reservation,
} from "./reservations/reservation-row.js";
import {
  findQuote,
  findQuoteForOrder,
  type QuoteForSubmission,
  type SubmissionAck,
} from "./reservations/submission-quote.js";

export type { ReconcileFinding, ReconcileResult } from "./reservations/reconcile-reservation.js";
export type { SettleInput } from "./reservations/reservation-attempts.js";
export type { Reservation } from "./reservations/reservation-row.js";
export type { QuoteForSubmission, SubmissionAck } from "./reservations/submission-quote.js";

/** The reservations an operator sees, oldest first. */
export interface ReservationFilter {
  state?: ReservationState | undefined;
  orgId?: string | undefined;
  limit: number;
}

/**
 * The reservation table: every decision is one statement (INSERT ... ON CONFLICT DO NOTHING, or an
 * UPDATE that compares state and attempt) or one transaction; reads only route to those statements.
 */
export interface SubmissionStore extends ReservationAttempts {
  findQuote(quoteId: string): Promise<QuoteForSubmission | undefined>;
  /**
   * The quote and, when one exists, the reservation of `hubOrderId` (the quote's hub order id), read in
   * one statement: what POST /order needs before its checks.
   */
  findQuoteForOrder(
    quoteId: string,
    hubOrderId: string,
  ): Promise<{ quote: QuoteForSubmission; submission: SubmissionAck | undefined } | undefined>;
  find(hubOrderId: string): Promise<Reservation | undefined>;
  list(filter: ReservationFilter): Promise<Reservation[]>;
  /** Settles a forwarding or unknown reservation by an operator's finding, in one transaction. */
  reconcile(input: {
    hubOrderId: string;
    finding: ReconcileFinding;
    note: string | undefined;
    at: Date;
  }): Promise<ReconcileResult>;
}

export function createSubmissionStore(sql: SqlClient): SubmissionStore {
  return {
    findQuote: (quoteId) => findQuote(sql, quoteId),
    findQuoteForOrder: (quoteId, hubOrderId) => findQuoteForOrder(sql, quoteId, hubOrderId),
    find: (hubOrderId) =>
      queryReservation(sql, `SELECT ${RESERVATION_COLUMNS} FROM submissions WHERE hub_order_id = $1`, [
        hubOrderId,
      ]),
    ...createReservationAttempts(sql),
    list: ({ state, orgId, limit }) =>
      queryReservations(
        sql,
        `SELECT ${RESERVATION_COLUMNS} FROM submissions
          WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR org_id = $2)
          ORDER BY reserved_at, hub_order_id
          LIMIT $3`,
        [state ?? null, orgId ?? null, limit],
      ),
    reconcile: (input) => reconcileReservation(sql, input),
  };
}
