import type { SqlExecutor } from "@hub/store";

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
