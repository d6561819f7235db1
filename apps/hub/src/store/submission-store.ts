import type { ReservationRecord, ReservationState } from "@hub/admin";
import type { Lane } from "@hub/contract";
import {
  isStorableText,
  isUniqueViolation,
  readJsonColumn,
  type SqlClient,
  type SqlExecutor,
  type SqlParam,
} from "@hub/store";
import type { UpstreamView } from "../status-rules/upstream-view.js";

/** What a submission reads of a quote: ownership, route, timing and the stored template. */
export interface QuoteForSubmission {
  quoteId: string;
  quoteRequestId: string;
  orgId: string;
  subject: string;
  lane: Lane;
  providerId: string;
  /** The stored template; its `quoteResponse` is forwarded verbatim. */
  template: { quoteResponse?: unknown } & Record<string, unknown>;
  /** Recomputed by the hub at quote time (EIP-3009 nonce, proxy lanes). */
  onchainOrderId: string | undefined;
  expiresAt: Date;
  registrableUntil: Date;
}

/** One reservation row (the admin module reads the same rows). */
export type Reservation = ReservationRecord;

/** What an order's ack is made of: the columns of a reservation POST /order answers from. */
export type SubmissionAck = Pick<Reservation, "hubOrderId" | "quoteId" | "state" | "submittedAt">;

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

/** The reservations an operator sees, oldest first. */
export interface ReservationFilter {
  state?: ReservationState | undefined;
  orgId?: string | undefined;
  limit: number;
}

/** What an operator found out about a forward whose outcome was not known. */
export type ReconcileFinding =
  | { opened: true; onchainOrderId: string; source: "upstream" | "verified"; view: UpstreamView }
  | { opened: false };

export type ReconcileResult =
  | { kind: "done"; reservation: Reservation }
  | { kind: "not-found" }
  | { kind: "not-pending"; reservation: Reservation }
  | { kind: "onchain-id-taken" };

/**
 * The reservation table: every decision is one statement (INSERT ... ON CONFLICT DO NOTHING, or an
 * UPDATE that compares state and attempt) or one transaction; reads only route to those statements.
 */
export interface SubmissionStore {
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
  list(filter: ReservationFilter): Promise<Reservation[]>;
  /** Settles a forwarding or unknown reservation by an operator's finding, in one transaction. */
  reconcile(input: {
    hubOrderId: string;
    finding: ReconcileFinding;
    note: string | undefined;
    at: Date;
  }): Promise<ReconcileResult>;
}

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

interface QuoteRow {
  quote_id: string;
  quote_request_id: string;
  org_id: string;
  subject: string;
  lane: Lane;
  provider_id: string;
  template: QuoteForSubmission["template"] | string;
  onchain_order_id: string | null;
  expires_at: Date | string;
  registrable_until: Date | string;
}

interface QuoteForOrderRow extends QuoteRow {
  submission_hub_order_id: string | null;
  submission_quote_id: string;
  submission_state: ReservationState;
  submission_submitted_at: Date | string | null;
}

const RESERVATION_COLUMNS = `hub_order_id, quote_id, org_id, subject, route, lane, state, attempt,
  upstream_provider_id, upstream_order_id, onchain_order_id, onchain_order_id_source, reserved_at,
  submitted_at, last_code, last_detail, reconciled_at, reconciled_note`;

const toDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

function quoteOf(row: QuoteRow): QuoteForSubmission {
  return {
    quoteId: row.quote_id,
    quoteRequestId: row.quote_request_id,
    orgId: row.org_id,
    subject: row.subject,
    lane: row.lane,
    providerId: row.provider_id,
    template: readJsonColumn(row.template),
    onchainOrderId: row.onchain_order_id ?? undefined,
    expiresAt: toDate(row.expires_at),
    registrableUntil: toDate(row.registrable_until),
  };
}

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

async function writeFirstView(sql: SqlExecutor, hubOrderId: string, view: UpstreamView, at: Date) {
  await sql.query(
    `INSERT INTO upstream_views (hub_order_id, view, refreshed_at) VALUES ($1, $2::jsonb, $3)
     ON CONFLICT (hub_order_id) DO NOTHING`,
    [hubOrderId, JSON.stringify(view), at.toISOString()],
  );
}

export function createSubmissionStore(sql: SqlClient): SubmissionStore {
  const one = async (text: string, params: readonly SqlParam[], on: SqlExecutor = sql) => {
    const rows = await on.query<ReservationRow>(text, params);
    return rows[0] === undefined ? undefined : reservationOf(rows[0]);
  };

  return {
    async findQuote(quoteId) {
      if (!isStorableText(quoteId)) return undefined;
      const rows = await sql.query<QuoteRow>(
        `SELECT quote_id, quote_request_id, org_id, subject, lane, provider_id, template,
                onchain_order_id, expires_at, registrable_until
           FROM quotes WHERE quote_id = $1`,
        [quoteId],
      );
      return rows[0] && quoteOf(rows[0]);
    },

    async findQuoteForOrder(quoteId, hubOrderId) {
      if (!isStorableText(quoteId)) return undefined;
      const [row] = await sql.query<QuoteForOrderRow>(
        `SELECT q.quote_id, q.quote_request_id, q.org_id, q.subject, q.lane, q.provider_id, q.template,
                q.onchain_order_id, q.expires_at, q.registrable_until,
                s.hub_order_id AS submission_hub_order_id, s.quote_id AS submission_quote_id,
                s.state AS submission_state, s.submitted_at AS submission_submitted_at
           FROM quotes q LEFT JOIN submissions s ON s.hub_order_id = $2
          WHERE q.quote_id = $1`,
        [quoteId, hubOrderId],
      );
      if (!row) return undefined;
      return {
        quote: quoteOf(row),
        submission:
          row.submission_hub_order_id === null
            ? undefined
            : {
                hubOrderId: row.submission_hub_order_id,
                quoteId: row.submission_quote_id,
                state: row.submission_state,
                submittedAt:
                  row.submission_submitted_at === null ? undefined : toDate(row.submission_submitted_at),
              },
      };
    },

    find: (hubOrderId) =>
      one(`SELECT ${RESERVATION_COLUMNS} FROM submissions WHERE hub_order_id = $1`, [hubOrderId]),

    reserve: ({ hubOrderId, quote, route, requestFingerprint, at }) =>
      one(
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
      one(
        `UPDATE submissions
            SET state = 'forwarding', attempt = attempt + 1, request_fingerprint = $4
          WHERE hub_order_id = $1 AND state = $2 AND attempt = $3 AND state IN ('refused', 'released')
          RETURNING ${RESERVATION_COLUMNS}`,
        [hubOrderId, fromState, fromAttempt, requestFingerprint],
      ),

    settle(hubOrderId, attempt, input) {
      if (input.state !== "acked") {
        return one(
          `UPDATE submissions SET state = $3, last_code = $4, last_detail = $5
            WHERE hub_order_id = $1 AND attempt = $2 AND state = 'forwarding'
            RETURNING ${RESERVATION_COLUMNS}`,
          [hubOrderId, attempt, input.state, input.code, input.detail.slice(0, 1000)],
        );
      }
      return sql.transaction(async (tx) => {
        const settled = await one(
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
          tx,
        );
        if (settled) await writeFirstView(tx, hubOrderId, input.view, input.at);
        return settled;
      });
    },

    async list({ state, orgId, limit }) {
      const rows = await sql.query<ReservationRow>(
        `SELECT ${RESERVATION_COLUMNS} FROM submissions
          WHERE ($1::text IS NULL OR state = $1) AND ($2::text IS NULL OR org_id = $2)
          ORDER BY reserved_at, hub_order_id
          LIMIT $3`,
        [state ?? null, orgId ?? null, limit],
      );
      return rows.map(reservationOf);
    },

    async reconcile({ hubOrderId, finding, note, at }) {
      try {
        return await sql.transaction(async (tx): Promise<ReconcileResult> => {
          const reconciled = finding.opened
            ? await one(
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
                tx,
              )
            : await one(
                `UPDATE submissions
                    SET state = 'released', reconciled_at = $2, reconciled_note = $3, attempt = attempt + 1
                  WHERE hub_order_id = $1 AND state IN ('forwarding', 'unknown')
                  RETURNING ${RESERVATION_COLUMNS}`,
                [hubOrderId, at.toISOString(), note ?? null],
                tx,
              );
          if (reconciled) {
            if (finding.opened) await writeFirstView(tx, hubOrderId, finding.view, at);
            return { kind: "done", reservation: reconciled };
          }
          const current = await one(
            `SELECT ${RESERVATION_COLUMNS} FROM submissions WHERE hub_order_id = $1`,
            [hubOrderId],
            tx,
          );
          return current ? { kind: "not-pending", reservation: current } : { kind: "not-found" };
        });
      } catch (error) {
        if (isUniqueViolation(error)) return { kind: "onchain-id-taken" };
        throw error;
      }
    },
  };
}
