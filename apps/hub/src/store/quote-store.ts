import type { SqlExecutor } from "@hub/store";

/** One issued quote as the quotes table holds it. */
export interface StoredQuote {
  quoteId: string;
  quoteRequestId: string;
  orgId: string;
  subject: string;
  replicaId: string;
  lane: string;
  /** The configured provider the quote came through. */
  providerId: string;
  preparationId: string | null;
  requestFingerprint: string;
  /** Exactly what was disclosed (QuoteWinner, or PreparedQuote on prepare). */
  winner: Record<string, unknown>;
  /** What the lane's submission needs (an OIF QuoteTemplate, or an open-flow template); JSON. */
  template: Record<string, unknown>;
  onchainOrderId: string | null;
  issuedAt: Date;
  expiresAt: Date;
  registrableUntil: Date;
}

export type NewQuote = StoredQuote;

export interface QuoteStore {
  /** Stores a non-prepared winner. */
  insert(quote: NewQuote): Promise<void>;
  /**
   * Stores a prepared winner unless its (organization, subject, preparationId) already has one; the
   * unique index decides, so two racing prepares store one row and both get it back.
   */
  insertPrepared(
    quote: NewQuote & { preparationId: string },
  ): Promise<{ inserted: boolean; quote: StoredQuote }>;
  findPrepared(orgId: string, subject: string, preparationId: string): Promise<StoredQuote | undefined>;
  /** Any quote by id (the submission routes check organization and subject themselves). */
  get(quoteId: string): Promise<StoredQuote | undefined>;
  /**
   * Deletes up to limit quotes no longer registrable before the cutoff that no submission or
   * open-flow registration refers to; returns how many went.
   */
  deleteExpiredUnreferenced(cutoff: Date, limit: number): Promise<number>;
}

interface QuoteRow {
  quote_id: string;
  quote_request_id: string;
  org_id: string;
  subject: string;
  replica_id: string;
  lane: string;
  provider_id: string;
  preparation_id: string | null;
  request_fingerprint: string;
  winner: Record<string, unknown> | string;
  template: Record<string, unknown> | string;
  onchain_order_id: string | null;
  issued_at: Date | string;
  expires_at: Date | string;
  registrable_until: Date | string;
}

const COLUMNS =
  "quote_id, quote_request_id, org_id, subject, replica_id, lane, provider_id, preparation_id, request_fingerprint, winner, template, onchain_order_id, issued_at, expires_at, registrable_until";

function json<T>(value: T | string): T {
  return typeof value === "string" ? (JSON.parse(value) as T) : value;
}

function fromRow(row: QuoteRow): StoredQuote {
  return {
    quoteId: row.quote_id,
    quoteRequestId: row.quote_request_id,
    orgId: row.org_id,
    subject: row.subject,
    replicaId: row.replica_id,
    lane: row.lane,
    providerId: row.provider_id,
    preparationId: row.preparation_id,
    requestFingerprint: row.request_fingerprint,
    winner: json(row.winner),
    template: json(row.template),
    onchainOrderId: row.onchain_order_id,
    issuedAt: new Date(row.issued_at),
    expiresAt: new Date(row.expires_at),
    registrableUntil: new Date(row.registrable_until),
  };
}

function params(quote: NewQuote) {
  return [
    quote.quoteId,
    quote.quoteRequestId,
    quote.orgId,
    quote.subject,
    quote.replicaId,
    quote.lane,
    quote.providerId,
    quote.preparationId,
    quote.requestFingerprint,
    JSON.stringify(quote.winner),
    JSON.stringify(quote.template),
    quote.onchainOrderId,
    quote.issuedAt.toISOString(),
    quote.expiresAt.toISOString(),
    quote.registrableUntil.toISOString(),
  ];
}

const INSERT = `INSERT INTO quotes (${COLUMNS})
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13::timestamptz, $14::timestamptz, $15::timestamptz)`;

export function createQuoteStore(sql: SqlExecutor): QuoteStore {
  async function findPrepared(orgId: string, subject: string, preparationId: string) {
    const rows = await sql.query<QuoteRow>(
      `SELECT ${COLUMNS} FROM quotes WHERE org_id = $1 AND subject = $2 AND preparation_id = $3`,
      [orgId, subject, preparationId],
    );
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }
  return {
    async insert(quote) {
      await sql.query(INSERT, params(quote));
    },
    async insertPrepared(quote) {
      const inserted = await sql.query<{ quote_id: string }>(
        `${INSERT} ON CONFLICT (org_id, subject, preparation_id) WHERE preparation_id IS NOT NULL DO NOTHING RETURNING quote_id`,
        params(quote),
      );
      if (inserted.length === 1) return { inserted: true, quote };
      const existing = await findPrepared(quote.orgId, quote.subject, quote.preparationId);
      if (!existing) throw new Error("a prepared quote conflicted on insert and then could not be read");
      return { inserted: false, quote: existing };
    },
    findPrepared,
    async get(quoteId) {
      const rows = await sql.query<QuoteRow>(`SELECT ${COLUMNS} FROM quotes WHERE quote_id = $1`, [quoteId]);
      return rows[0] === undefined ? undefined : fromRow(rows[0]);
    },
    async deleteExpiredUnreferenced(cutoff, limit) {
      const deleted = await sql.query<{ quote_id: string }>(
        `DELETE FROM quotes WHERE quote_id IN (
           SELECT q.quote_id FROM quotes q
           WHERE q.registrable_until < $1 AND q.expires_at < $1
             AND NOT EXISTS (SELECT 1 FROM submissions s WHERE s.quote_id = q.quote_id)
             AND NOT EXISTS (SELECT 1 FROM open_flow_registrations r WHERE r.quote_id = q.quote_id)
           ORDER BY q.registrable_until
           LIMIT $2
           FOR UPDATE SKIP LOCKED)
         RETURNING quote_id`,
        [cutoff.toISOString(), limit],
      );
      return deleted.length;
    },
  };
}
