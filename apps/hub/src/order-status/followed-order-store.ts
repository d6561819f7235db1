import type { SqlExecutor } from "@hub/store";
import type { UpstreamView } from "../order-state/upstream-view.js";

/** An acked openFor order as the status view needs it, with its persisted upstream view. */
export interface FollowedOrder {
  hubOrderId: string;
  quoteId: string;
  organization: string;
  subject: string;
  onchainOrderId: string | undefined;
  upstreamProviderId: string;
  upstreamOrderId: string | undefined;
  /** Undefined when no view was ever written (an ack that crashed before its view cannot exist, but be safe). */
  view: UpstreamView | undefined;
  /** When a refresh (successful or not) last ran, on any replica: it bounds upstream reads across replicas. */
  refreshedAtMs: number | undefined;
  /** When the served state was last read from the upstream. */
  lastReadAtMs: number | undefined;
}

/** The persisted view carries the time of its last good read beside the wire fields. */
export type PersistedUpstreamView = UpstreamView & { lastReadAt?: string };

interface FollowedOrderRow {
  hub_order_id: string;
  quote_id: string;
  org_id: string;
  subject: string;
  onchain_order_id: string | null;
  upstream_provider_id: string;
  upstream_order_id: string | null;
  view: PersistedUpstreamView | string | null;
  refreshed_at: Date | string | null;
}

/** Reads an acked openFor submission and its upstream view, or undefined for any other id. */
export async function readFollowedOrder(
  sql: SqlExecutor,
  hubOrderId: string,
): Promise<FollowedOrder | undefined> {
  const rows = await sql.query<FollowedOrderRow>(
    `SELECT s.hub_order_id, s.quote_id, s.org_id, s.subject, s.onchain_order_id, s.upstream_provider_id,
            s.upstream_order_id, v.view, v.refreshed_at
     FROM submissions s LEFT JOIN upstream_views v ON v.hub_order_id = s.hub_order_id
     WHERE s.hub_order_id = $1 AND s.state = 'acked' AND s.route = 'openfor'`,
    [hubOrderId],
  );
  const row = rows[0];
  if (!row) return undefined;
  const persisted = (
    typeof row.view === "string" ? JSON.parse(row.view) : row.view
  ) as PersistedUpstreamView | null;
  const refreshedAtMs = row.refreshed_at === null ? undefined : new Date(row.refreshed_at).getTime();
  let view: UpstreamView | undefined;
  let lastReadAtMs: number | undefined;
  if (persisted) {
    const { lastReadAt, ...rest } = persisted;
    view = rest;
    lastReadAtMs = lastReadAt === undefined ? refreshedAtMs : Date.parse(lastReadAt);
  }
  return {
    hubOrderId: row.hub_order_id,
    quoteId: row.quote_id,
    organization: row.org_id,
    subject: row.subject,
    onchainOrderId: row.onchain_order_id ?? undefined,
    upstreamProviderId: row.upstream_provider_id,
    upstreamOrderId: row.upstream_order_id ?? undefined,
    view,
    refreshedAtMs,
    lastReadAtMs,
  };
}

/**
 * Stores a refreshed view unless another replica stored a later refresh meanwhile (the newer read wins;
 * one statement, no read-then-write).
 */
export async function saveUpstreamView(
  sql: SqlExecutor,
  hubOrderId: string,
  view: UpstreamView,
  refreshedAtMs: number,
  lastReadAtMs: number,
): Promise<void> {
  const persisted: PersistedUpstreamView = { ...view, lastReadAt: new Date(lastReadAtMs).toISOString() };
  await sql.query(
    `INSERT INTO upstream_views (hub_order_id, view, refreshed_at) VALUES ($1, $2::jsonb, $3)
     ON CONFLICT (hub_order_id) DO UPDATE SET view = excluded.view, refreshed_at = excluded.refreshed_at
     WHERE upstream_views.refreshed_at <= excluded.refreshed_at`,
    [hubOrderId, JSON.stringify(persisted), new Date(refreshedAtMs).toISOString()],
  );
}
