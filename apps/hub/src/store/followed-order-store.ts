import type { OrderListEntry } from "@hub/contract";
import { isStorableText, readJsonColumn, type SqlExecutor } from "@hub/store";
import type { UpstreamView } from "../status-rules/upstream-view.js";

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

/** One acked openFor order as GET /orders lists it, before its chain facts are joined. */
export interface ListedOrder {
  hubOrderId: string;
  quoteId: string;
  lane: OrderListEntry["lane"];
  onchainOrderId: string;
  onchainOrderIdSource: "upstream" | "verified" | undefined;
  submittedAt: Date;
  /** submittedAt in microseconds since the epoch, as a decimal string: the page cursor's key. */
  submittedAtMicros: string;
  /** The winner as disclosed (parsed JSON). */
  winner: unknown;
  /** The upstream view's state; undefined when no view was written. */
  upstreamState: OrderListEntry["state"] | undefined;
}

/** The acked openFor orders: what the upstream status view and the orders list read, and the views they save. */
export interface FollowedOrderStore {
  /** Reads an acked openFor submission and its upstream view, or undefined for any other id. */
  readFollowedOrder(hubOrderId: string): Promise<FollowedOrder | undefined>;
  /**
   * Stores a refreshed view unless another replica stored a later refresh meanwhile (the newer read
   * wins; one statement, no read-then-write).
   */
  saveUpstreamView(
    hubOrderId: string,
    view: UpstreamView,
    refreshedAtMs: number,
    lastReadAtMs: number,
  ): Promise<void>;
  /**
   * Up to limit of the organization's acked openFor orders under the subject that have an on-chain id,
   * by (submittedAt, orderId) ascending, after the given key when one is given.
   */
  listFollowedOrders(request: {
    organization: string;
    subject: string;
    after: { submittedAtMicros: string; hubOrderId: string } | undefined;
    limit: number;
  }): Promise<ListedOrder[]>;
}

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

interface ListedRow {
  hub_order_id: string;
  quote_id: string;
  lane: OrderListEntry["lane"];
  onchain_order_id: string;
  onchain_order_id_source: "upstream" | "verified" | null;
  submitted_at: Date | string;
  submitted_us: string;
  winner: unknown;
  state: OrderListEntry["state"] | null;
}

function followedOrderOf(row: FollowedOrderRow): FollowedOrder {
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

export function createFollowedOrderStore(sql: SqlExecutor): FollowedOrderStore {
  return {
    async readFollowedOrder(hubOrderId) {
      if (!isStorableText(hubOrderId)) return undefined;
      const rows = await sql.query<FollowedOrderRow>(
        `SELECT s.hub_order_id, s.quote_id, s.org_id, s.subject, s.onchain_order_id, s.upstream_provider_id,
                s.upstream_order_id, v.view, v.refreshed_at
         FROM submissions s LEFT JOIN upstream_views v ON v.hub_order_id = s.hub_order_id
         WHERE s.hub_order_id = $1 AND s.state = 'acked' AND s.route = 'openfor'`,
        [hubOrderId],
      );
      const row = rows[0];
      return row && followedOrderOf(row);
    },

    async saveUpstreamView(hubOrderId, view, refreshedAtMs, lastReadAtMs) {
      const persisted: PersistedUpstreamView = { ...view, lastReadAt: new Date(lastReadAtMs).toISOString() };
      await sql.query(
        `INSERT INTO upstream_views (hub_order_id, view, refreshed_at) VALUES ($1, $2::jsonb, $3)
         ON CONFLICT (hub_order_id) DO UPDATE SET view = excluded.view, refreshed_at = excluded.refreshed_at
         WHERE upstream_views.refreshed_at <= excluded.refreshed_at`,
        [hubOrderId, JSON.stringify(persisted), new Date(refreshedAtMs).toISOString()],
      );
    },

    async listFollowedOrders({ organization, subject, after, limit }) {
      const params = [organization, subject, limit] as (string | number)[];
      let where = "";
      if (after) {
        params.push(after.submittedAtMicros, after.hubOrderId);
        where = `AND (s.submitted_at, s.hub_order_id) >
          (timestamptz 'epoch' + $4::bigint * interval '1 microsecond', $5)`;
      }
      const rows = await sql.query<ListedRow>(
        `SELECT s.hub_order_id, s.quote_id, s.lane, s.onchain_order_id, s.onchain_order_id_source, s.submitted_at,
                (extract(epoch FROM s.submitted_at) * 1000000)::bigint::text AS submitted_us,
                q.winner, v.view->>'state' AS state
         FROM submissions s
         JOIN quotes q ON q.quote_id = s.quote_id
         LEFT JOIN upstream_views v ON v.hub_order_id = s.hub_order_id
         WHERE s.org_id = $1 AND s.subject = $2 AND s.state = 'acked' AND s.route = 'openfor'
           AND s.onchain_order_id IS NOT NULL ${where}
         ORDER BY s.submitted_at, s.hub_order_id
         LIMIT $3`,
        params,
      );
      return rows.map((row) => ({
        hubOrderId: row.hub_order_id,
        quoteId: row.quote_id,
        lane: row.lane,
        onchainOrderId: row.onchain_order_id,
        onchainOrderIdSource: row.onchain_order_id_source ?? undefined,
        submittedAt: new Date(row.submitted_at),
        submittedAtMicros: row.submitted_us,
        winner: readJsonColumn(row.winner),
        upstreamState: row.state ?? undefined,
      }));
    },
  };
}
