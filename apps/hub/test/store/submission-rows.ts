import { randomBytes } from "node:crypto";
import { hubOrderId } from "@hub/contract";
import type { SqlClient, SqlExecutor } from "@hub/store";

/** The submissions a quote has (at most one). */
export async function countSubmissions(sql: SqlExecutor, quoteId: string): Promise<number> {
  const [row] = await sql.query<{ n: string }>(
    "SELECT count(*)::text AS n FROM submissions WHERE quote_id = $1",
    [quoteId],
  );
  return Number(row?.n);
}

/** The reservation of a quote: its state, last refusal detail and where its on-chain id came from. */
export async function readSubmission(
  sql: SqlExecutor,
  quoteId: string,
): Promise<
  { state: string; last_detail: string | null; onchain_order_id_source: string | null } | undefined
> {
  const [row] = await sql.query<{
    state: string;
    last_detail: string | null;
    onchain_order_id_source: string | null;
  }>("SELECT state, last_detail, onchain_order_id_source FROM submissions WHERE quote_id = $1", [quoteId]);
  return row;
}

/** Turns an acked submission back into one whose outcome is unknown. */
export async function markSubmissionUnknown(sql: SqlExecutor, hubOrderId: string): Promise<void> {
  await sql.query(`UPDATE submissions SET state = 'unknown', submitted_at = NULL WHERE hub_order_id = $1`, [
    hubOrderId,
  ]);
}

/** The persisted upstream view of an order, parsed; undefined when none was written. */
export async function readUpstreamView(sql: SqlExecutor, hubOrderId: string): Promise<unknown> {
  const rows = await sql.query<{ view: unknown }>("SELECT view FROM upstream_views WHERE hub_order_id = $1", [
    hubOrderId,
  ]);
  const view = rows[0]?.view;
  return typeof view === "string" ? JSON.parse(view) : view;
}

/** A quote with a reservation in the given state, as the hub would have left it. */
export async function seedReservation(
  sql: SqlClient,
  input: { orgId: string; state: "forwarding" | "unknown" | "acked"; recomputed?: string },
) {
  const quoteId = `q_r1_${randomBytes(12).toString("base64url")}`;
  const id = hubOrderId(quoteId);
  const now = new Date();
  const later = new Date(now.getTime() + 30_000);
  await sql.query(
    `INSERT INTO quotes (quote_id, quote_request_id, org_id, subject, replica_id, lane, provider_id,
       request_fingerprint, winner, template, issued_at, expires_at, registrable_until, onchain_order_id)
     VALUES ($1, 'qr_r1_x', $2, 'user-1', 'r1', 'oif-escrow-gasless', 'devnet', $3, '{}'::jsonb, '{}'::jsonb, $4, $5, $5, $6)`,
    [quoteId, input.orgId, "a".repeat(64), now.toISOString(), later.toISOString(), input.recomputed ?? null],
  );
  const acked = input.state === "acked";
  await sql.query(
    `INSERT INTO submissions (hub_order_id, quote_id, org_id, subject, route, lane, request_fingerprint, state,
       upstream_provider_id, reserved_at, submitted_at, onchain_order_id, onchain_order_id_source)
     VALUES ($1, $2, $3, 'user-1', 'openfor', 'oif-escrow-gasless', $4, $5, 'devnet', $6, $7, $8, $9)`,
    [
      id,
      quoteId,
      input.orgId,
      "b".repeat(64),
      input.state,
      now.toISOString(),
      acked ? now.toISOString() : null,
      acked ? `0x${randomBytes(32).toString("hex")}` : null,
      acked ? "upstream" : null,
    ],
  );
  return id;
}

/** The state and on-chain order id of a quote's reservation. */
export async function readSubmissionOnchainId(
  sql: SqlExecutor,
  quoteId: string,
): Promise<{ onchain_order_id: string | null; state: string } | undefined> {
  const [row] = await sql.query<{ onchain_order_id: string | null; state: string }>(
    "SELECT onchain_order_id, state FROM submissions WHERE quote_id = $1",
    [quoteId],
  );
  return row;
}
