import { randomBytes } from "node:crypto";
import { hubOrderId } from "@hub/contract";
import type { SqlClient, SqlExecutor } from "@hub/store";

export /** A quote of this organization with a reservation in the given state, as the hub would have left it. */
async function seedReservation(sql: SqlClient, orgId: string, state: "forwarding" | "unknown" | "acked") {
  const quoteId = `q_r1_${randomBytes(12).toString("base64url")}`;
  const id = hubOrderId(quoteId);
  const now = new Date();
  const later = new Date(now.getTime() + 30_000);
  await sql.query(
    `INSERT INTO quotes (quote_id, quote_request_id, org_id, subject, replica_id, lane, provider_id,
       request_fingerprint, winner, template, issued_at, expires_at, registrable_until)
     VALUES ($1, 'qr_r1_x', $2, 'user-1', 'r1', 'oif-escrow-gasless', 'devnet', $3, '{}'::jsonb, '{}'::jsonb, $4, $5, $5)`,
    [quoteId, orgId, "a".repeat(64), now.toISOString(), later.toISOString()],
  );
  const acked = state === "acked";
  await sql.query(
    `INSERT INTO submissions (hub_order_id, quote_id, org_id, subject, route, lane, request_fingerprint, state,
       upstream_provider_id, reserved_at, submitted_at, onchain_order_id, onchain_order_id_source)
     VALUES ($1, $2, $3, 'user-1', 'openfor', 'oif-escrow-gasless', $4, $5, 'devnet', $6, $7, $8, $9)`,
    [
      id,
      quoteId,
      orgId,
      "b".repeat(64),
      state,
      now.toISOString(),
      acked ? now.toISOString() : null,
      acked ? `0x${randomBytes(32).toString("hex")}` : null,
      acked ? "upstream" : null,
    ],
  );
  return id;
}

/** The persisted upstream view of an order, parsed; undefined when none was written. */
export async function readUpstreamView(sql: SqlExecutor, orderId: string): Promise<unknown> {
  const rows = await sql.query<{ view: unknown }>("SELECT view FROM upstream_views WHERE hub_order_id = $1", [
    orderId,
  ]);
  const view = rows[0]?.view;
  return typeof view === "string" ? JSON.parse(view) : view;
}
