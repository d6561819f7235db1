import { needsJsonbCheck, readJsonColumn, type SqlExecutor } from "@hub/store";

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

export interface NewQuote extends StoredQuote {
  /** JSON.stringify(winner), when the caller has it already (the answer's own text). */
  winnerJson?: string;
}

export interface QuoteStore {
  /**
   * Stores a non-prepared winner. `alone`: no other quote can reach the store in this event-loop turn
   * (the caller's round is the only one in flight), so there is nothing to group it with and its
   * statement starts at once instead of after the turn.
   */
  insert(quote: NewQuote, alone?: boolean): Promise<void>;
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
    winner: readJsonColumn(row.winner),
    template: readJsonColumn(row.template),
    onchainOrderId: row.onchain_order_id,
    issuedAt: new Date(row.issued_at),
    expiresAt: new Date(row.expires_at),
    registrableUntil: new Date(row.registrable_until),
  };
}

/** A quote's 15 parameters, and whether its JSON goes in through a jsonb cast (needsJsonbCheck). */
function params(quote: NewQuote): { values: (string | null)[]; jsonbCheck: boolean } {
  const winner = quote.winnerJson ?? JSON.stringify(quote.winner);
  const template = JSON.stringify(quote.template);
  return {
    values: [
      quote.quoteId,
      quote.quoteRequestId,
      quote.orgId,
      quote.subject,
      quote.replicaId,
      quote.lane,
      quote.providerId,
      quote.preparationId,
      quote.requestFingerprint,
      winner,
      template,
      quote.onchainOrderId,
      quote.issuedAt.toISOString(),
      quote.expiresAt.toISOString(),
      quote.registrableUntil.toISOString(),
    ],
    jsonbCheck: needsJsonbCheck(winner) || needsJsonbCheck(template),
  };
}

/**
 * `INSERT INTO quotes` of one row per entry of `jsonbChecks`, each with the 15 parameters of `params`;
 * a row's JSON is cast to json, or to jsonb where its entry is true (the column takes jsonb by
 * assignment, after jsonb has refused what it refuses).
 */
function insertStatement(jsonbChecks: readonly boolean[]): string {
  const values = jsonbChecks.map((jsonbCheck, row) => {
    const $ = (n: number) => `$${row * 15 + n}`;
    const cast = jsonbCheck ? "jsonb" : "json";
    return `(${$(1)}, ${$(2)}, ${$(3)}, ${$(4)}, ${$(5)}, ${$(6)}, ${$(7)}, ${$(8)}, ${$(9)}, ${$(10)}::${cast}, ${$(11)}::${cast}, ${$(12)}, ${$(13)}::timestamptz, ${$(14)}::timestamptz, ${$(15)}::timestamptz)`;
  });
  return `INSERT INTO quotes (${COLUMNS})\n  VALUES ${values.join(",\n    ")}`;
}

/** The insert of one quote, by whether its JSON goes through a jsonb cast. */
function insertOne(jsonbCheck: boolean): string {
  return jsonbCheck ? INSERT_JSONB_CHECKED : INSERT;
}
const INSERT = insertStatement([false]);
const INSERT_JSONB_CHECKED = insertStatement([true]);

/** The most rows one grouped insert carries. */
const MAX_GROUPED_ROWS = 64;

/**
 * Inserts quotes one statement at a time, each statement started after the event loop's current turn:
 * every quote that reached the store in that turn (the rounds whose last answers were read together),
 * and every quote arriving while a statement runs, goes in the next statement as one multi-row INSERT
 * (a lone row costs PGlite about twice a row of a group of 16). A quote its caller knows to be alone
 * starts its statement at once when none is running: waiting out the turn would only delay it.
 * Quotes go in the order they came. When a grouped statement fails, each of its quotes is inserted
 * alone, in order, so each caller gets its own outcome, as if it had never been grouped.
 */
function createGroupedInsert(sql: SqlExecutor): (quote: NewQuote, alone?: boolean) => Promise<void> {
  const waiting: { quote: NewQuote; settle: (error?: unknown) => void }[] = [];
  let running = false;
  const statements: string[] = [];

  async function insertAlone({ quote, settle }: (typeof waiting)[number]): Promise<void> {
    try {
      const { values, jsonbCheck } = params(quote);
      await sql.query(insertOne(jsonbCheck), values);
      settle();
    } catch (error) {
      settle(error);
    }
  }

  async function insertWaiting(): Promise<void> {
    while (waiting.length > 0) {
      const group = waiting.splice(0, MAX_GROUPED_ROWS);
      try {
        const rows = group.map(({ quote }) => params(quote));
        const values = rows.flatMap((row) => row.values);
        if (rows.some((row) => row.jsonbCheck)) {
          await sql.query(insertStatement(rows.map((row) => row.jsonbCheck)), values);
        } else {
          statements[group.length] ??= insertStatement(rows.map(() => false));
          await sql.run(`quotes_insert_${group.length}`, statements[group.length]!, values);
        }
        for (const { settle } of group) settle();
      } catch {
        // Alone, through query, each caller gets the error it would have had ungrouped.
        for (const waiter of group) await insertAlone(waiter);
      }
    }
    running = false;
  }

  return (quote, alone = false) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ quote, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!running) {
        running = true;
        if (alone) void insertWaiting();
        else setImmediate(() => void insertWaiting());
      }
    });
}

export function createQuoteStore(sql: SqlExecutor): QuoteStore {
  async function findPrepared(orgId: string, subject: string, preparationId: string) {
    const rows = await sql.query<QuoteRow>(
      `SELECT ${COLUMNS} FROM quotes WHERE org_id = $1 AND subject = $2 AND preparation_id = $3`,
      [orgId, subject, preparationId],
    );
    return rows[0] === undefined ? undefined : fromRow(rows[0]);
  }
  return {
    insert: createGroupedInsert(sql),
    async insertPrepared(quote) {
      const { values, jsonbCheck } = params(quote);
      const inserted = await sql.query<{ quote_id: string }>(
        `${insertOne(jsonbCheck)} ON CONFLICT (org_id, subject, preparation_id) WHERE preparation_id IS NOT NULL DO NOTHING RETURNING quote_id`,
        values,
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
