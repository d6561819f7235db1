import { createHash } from "node:crypto";
import type { SqlExecutor } from "@hub/store";
import { firstUpstreamView } from "../../src/submissions/first-upstream-view.js";

/** One acked openFor order written straight into the database, as an ack leaves it. */
export interface SeededOrder {
  quoteId: string;
  hubOrderId: string;
  onchainOrderId: string;
  upstreamOrderId: string;
  organization: string;
  subject: string;
  submittedAt: Date;
}

const hex64 = (text: string) => createHash("sha256").update(text).digest("hex");

export function hubOrderIdOf(quoteId: string): string {
  return hex64(`service:v1:order:${quoteId}`);
}

/**
 * Writes quotes, acked openFor submissions and their first upstream views (`created`) for the given
 * orders in three set-based statements; the winner carries the input the list entry shows.
 */
export async function seedAckedOrders(
  sql: SqlExecutor,
  orders: ReadonlyArray<Omit<SeededOrder, "hubOrderId" | "onchainOrderId" | "upstreamOrderId">>,
  options: { providerId: string; asset: string; amount: string },
): Promise<SeededOrder[]> {
  const seeded = orders.map((order) => ({
    ...order,
    hubOrderId: hubOrderIdOf(order.quoteId),
    onchainOrderId: `0x${hex64(`onchain:${order.quoteId}`)}`,
    upstreamOrderId: `up-${order.quoteId}`,
  }));
  const winner = JSON.stringify({ input: { asset: options.asset, amount: options.amount } });
  const ids = seeded.map((order) => order.quoteId);
  const at = seeded.map((order) => order.submittedAt.toISOString());
  await sql.query(
    `INSERT INTO quotes (quote_id, quote_request_id, org_id, subject, replica_id, lane, provider_id,
       request_fingerprint, winner, template, issued_at, expires_at, registrable_until)
     SELECT q, 'qr-' || q, o, s, 'r1', 'oif-escrow-gasless', $4, $5, $6::jsonb, '{}'::jsonb,
       t::timestamptz - interval '5 seconds', t::timestamptz + interval '25 seconds', t::timestamptz + interval '25 seconds'
     FROM unnest($1::text[], $2::text[], $3::text[], $7::text[]) AS x(q, o, s, t)`,
    [
      ids,
      seeded.map((o) => o.organization),
      seeded.map((o) => o.subject),
      options.providerId,
      hex64("fp"),
      winner,
      at,
    ],
  );
  await sql.query(
    `INSERT INTO submissions (hub_order_id, quote_id, org_id, subject, route, lane, request_fingerprint, state,
       upstream_provider_id, upstream_order_id, onchain_order_id, onchain_order_id_source, reserved_at, submitted_at)
     SELECT h, q, o, s, 'openfor', 'oif-escrow-gasless', $7, 'acked', $8, u, c, 'upstream', t::timestamptz, t::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $9::text[]) AS x(h, q, o, s, u, c, t)`,
    [
      seeded.map((o) => o.hubOrderId),
      ids,
      seeded.map((o) => o.organization),
      seeded.map((o) => o.subject),
      seeded.map((o) => o.upstreamOrderId),
      seeded.map((o) => o.onchainOrderId),
      hex64("fp"),
      options.providerId,
      at,
    ],
  );
  await sql.query(
    `INSERT INTO upstream_views (hub_order_id, view, refreshed_at)
     SELECT h, v::jsonb, t::timestamptz FROM unnest($1::text[], $2::text[], $3::text[]) AS x(h, v, t)`,
    [
      seeded.map((o) => o.hubOrderId),
      seeded.map((o) => JSON.stringify(firstUpstreamView(o.submittedAt))),
      at,
    ],
  );
  return seeded;
}
