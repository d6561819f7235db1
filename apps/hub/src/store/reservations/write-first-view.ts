import type { SqlExecutor } from "@hub/store";
import type { UpstreamView } from "../../status-rules/upstream-view.js";

/** Writes an acked order's first upstream view (state created), unless one is there already. */
export async function writeFirstView(sql: SqlExecutor, hubOrderId: string, view: UpstreamView, at: Date) {
  await sql.query(
    `INSERT INTO upstream_views (hub_order_id, view, refreshed_at) VALUES ($1, $2::jsonb, $3)
     ON CONFLICT (hub_order_id) DO NOTHING`,
    [hubOrderId, JSON.stringify(view), at.toISOString()],
  );
}
