import type { SqlExecutor } from "@hub/store";
import type { SolanaQuoteBlock } from "../../src/quotes/solana-quote-template.js";

/** The quotes table's rows of one quote id, every column as the driver returns it. */
export function readQuoteRows<Row extends object = Record<string, unknown>>(
  sql: SqlExecutor,
  quoteId: string,
): Promise<Row[]> {
  return sql.query<Row>("SELECT * FROM quotes WHERE quote_id = $1", [quoteId]);
}

/** The value as PostgreSQL's jsonb gives it back (its key order), from this database. */
export async function throughJsonb(sql: SqlExecutor, value: unknown): Promise<unknown> {
  const [row] = await sql.query<{ value: unknown }>("SELECT $1::jsonb AS value", [JSON.stringify(value)]);
  return row!.value;
}

/** Every stored quote. */
export async function countQuotes(sql: SqlExecutor): Promise<number> {
  const [row] = await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM quotes");
  return row?.n ?? -1;
}

/** The quotes stored under one preparationId, any organization. */
export function listPreparedQuoteIds(
  sql: SqlExecutor,
  preparationId: string,
): Promise<Array<{ quote_id: string }>> {
  return sql.query<{ quote_id: string }>("SELECT quote_id FROM quotes WHERE preparation_id = $1", [
    preparationId,
  ]);
}

/** Changes the deposit amount in a stored open-flow template, as a tampered row would carry it. */
export async function tamperDepositAmount(sql: SqlExecutor, quoteId: string, amount: string): Promise<void> {
  await sql.query(
    `UPDATE quotes SET template = jsonb_set(template::jsonb, '{deposit,amount}', $2::jsonb) WHERE quote_id = $1`,
    [quoteId, JSON.stringify(amount)],
  );
}

/** A quote no submission refers to, written straight into the table with the given times. */
export async function seedQuote(
  sql: SqlExecutor,
  quote: { quoteId: string; orgId: string; expiresAt: Date; registrableUntil: Date },
): Promise<void> {
  await sql.query(
    `INSERT INTO quotes (quote_id, quote_request_id, org_id, subject, replica_id, lane, provider_id,
       request_fingerprint, winner, template, issued_at, expires_at, registrable_until)
     VALUES ($1, 'qr-' || $1, $2, 'user-1', 'r1', 'oif-escrow-gasless', 'devnet', $3, '{}'::jsonb, '{}'::jsonb,
       $4::timestamptz - interval '30 seconds', $4::timestamptz, $5::timestamptz)`,
    [
      quote.quoteId,
      quote.orgId,
      "c".repeat(64),
      quote.expiresAt.toISOString(),
      quote.registrableUntil.toISOString(),
    ],
  );
}

/** Which of these quote ids are still stored. */
export async function storedQuoteIds(sql: SqlExecutor, quoteIds: readonly string[]): Promise<string[]> {
  const rows = await sql.query<{ quote_id: string }>(
    "SELECT quote_id FROM quotes WHERE quote_id = ANY($1::text[]) ORDER BY quote_id",
    [quoteIds],
  );
  return rows.map((row) => row.quote_id);
}

/**
 * An oif-escrow-nonevm quote as the hub stores it: the vetted `solana` block, and beside it the
 * upstream answer in the wire contract's words (docs/decisions/solana-lane.md), which is only forwarded.
 */
export async function seedSolanaQuote(
  sql: SqlExecutor,
  quote: {
    quoteId: string;
    orgId: string;
    solana: SolanaQuoteBlock;
    /** Words of the upstream's payload that differ from the vetted block (a uint as a JSON number, say). */
    upstreamWords?: Record<string, unknown>;
  },
): Promise<{ quoteRequestId: string; quoteId: string }> {
  const { transactionMessage, digest, sender, feePayer, escrowOrder, fillDeadline, output } = quote.solana;
  const payload = {
    transactionMessage,
    digest,
    sender,
    feePayer,
    escrowOrder,
    fillDeadline,
    output,
    ...quote.upstreamWords,
  };
  const onchainOrderId = escrowOrder.orderId;
  const template = {
    version: 1,
    providerId: "devnet",
    solverId: "alpha",
    lane: "oif-escrow-nonevm",
    orderType: "oif-svm-escrow-v0",
    signatureScheme: "ed25519",
    quoteResponse: {
      quoteId: `up-${quote.quoteId}`,
      order: { type: "oif-svm-escrow-v0", payload: { signatureType: "ed25519", ...payload } },
    },
    onchainOrderId,
    onchainOrderIdSource: "verified",
    solana: quote.solana,
  };
  await sql.query(
    `INSERT INTO quotes (quote_id, quote_request_id, org_id, subject, replica_id, lane, provider_id,
       request_fingerprint, winner, template, onchain_order_id, issued_at, expires_at, registrable_until)
     VALUES ($1, 'qr-' || $1, $2, 'user-1', 'r1', 'oif-escrow-nonevm', 'devnet', $3, '{}'::jsonb, $4::jsonb, $5,
       now(), now() + interval '10 minutes', now() + interval '10 minutes')`,
    [quote.quoteId, quote.orgId, "d".repeat(64), JSON.stringify(template), onchainOrderId],
  );
  return { quoteRequestId: `qr-${quote.quoteId}`, quoteId: quote.quoteId };
}
