import type { ReservationState } from "@hub/admin";
import type { Lane } from "@hub/contract";
import { isStorableText, readJsonColumn, type SqlExecutor } from "@hub/store";
import { type Reservation, toDate } from "./reservation-row.js";

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

/** What an order's ack is made of: the columns of a reservation POST /order answers from. */
export type SubmissionAck = Pick<Reservation, "hubOrderId" | "quoteId" | "state" | "submittedAt">;

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

export async function findQuote(sql: SqlExecutor, quoteId: string): Promise<QuoteForSubmission | undefined> {
  if (!isStorableText(quoteId)) return undefined;
  const rows = await sql.query<QuoteRow>(
    `SELECT quote_id, quote_request_id, org_id, subject, lane, provider_id, template,
            onchain_order_id, expires_at, registrable_until
       FROM quotes WHERE quote_id = $1`,
    [quoteId],
  );
  return rows[0] && quoteOf(rows[0]);
}

export async function findQuoteForOrder(
  sql: SqlExecutor,
  quoteId: string,
  hubOrderId: string,
): Promise<{ quote: QuoteForSubmission; submission: SubmissionAck | undefined } | undefined> {
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
}
