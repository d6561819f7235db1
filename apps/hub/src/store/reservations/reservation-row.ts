import type { ReservationRecord, ReservationState } from "@hub/admin";
import type { SqlExecutor, SqlParam } from "@hub/store";

/** One reservation row (the admin module reads the same rows). */
export type Reservation = ReservationRecord;

interface ReservationRow {
  hub_order_id: string;
  quote_id: string;
  org_id: string;
  subject: string;
  route: "openfor" | "order";
  lane: string;
  state: ReservationState;
  attempt: number;
  upstream_provider_id: string;
  upstream_order_id: string | null;
  onchain_order_id: string | null;
  onchain_order_id_source: "upstream" | "verified" | null;
  reserved_at: Date | string;
  submitted_at: Date | string | null;
  last_code: string | null;
  last_detail: string | null;
  reconciled_at: Date | string | null;
  reconciled_note: string | null;
}

export const RESERVATION_COLUMNS = `hub_order_id, quote_id, org_id, subject, route, lane, state, attempt,
  upstream_provider_id, upstream_order_id, onchain_order_id, onchain_order_id_source, reserved_at,
  submitted_at, last_code, last_detail, reconciled_at, reconciled_note`;

export const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function reservationOf(row: ReservationRow): Reservation {
  return {
    hubOrderId: row.hub_order_id,
    quoteId: row.quote_id,
    orgId: row.org_id,
    subject: row.subject,
    route: row.route,
    lane: row.lane,
    state: row.state,
    attempt: Number(row.attempt),
    upstreamProviderId: row.upstream_provider_id,
    upstreamOrderId: row.upstream_order_id ?? undefined,
    onchainOrderId: row.onchain_order_id ?? undefined,
    onchainOrderIdSource: row.onchain_order_id_source ?? undefined,
    reservedAt: toDate(row.reserved_at),
    submittedAt: row.submitted_at === null ? undefined : toDate(row.submitted_at),
    lastCode: row.last_code ?? undefined,
    lastDetail: row.last_detail ?? undefined,
    reconciledAt: row.reconciled_at === null ? undefined : toDate(row.reconciled_at),
    reconciledNote: row.reconciled_note ?? undefined,
  };
}

/** The reservations a statement that returns RESERVATION_COLUMNS read or wrote. */
export async function queryReservations(
  on: SqlExecutor,
  text: string,
  params: readonly SqlParam[],
): Promise<Reservation[]> {
  const rows = await on.query<ReservationRow>(text, params);
  return rows.map(reservationOf);
}

/** The one reservation such a statement read or wrote, or undefined when none. */
export async function queryReservation(
  on: SqlExecutor,
  text: string,
  params: readonly SqlParam[],
): Promise<Reservation | undefined> {
  const rows = await on.query<ReservationRow>(text, params);
  return rows[0] === undefined ? undefined : reservationOf(rows[0]);
}
