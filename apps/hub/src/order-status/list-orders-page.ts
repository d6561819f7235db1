import type { OrderListEntry, OrdersList } from "@hub/contract";
import type { SqlExecutor } from "@hub/store";
import { loadChainViews } from "../onchain-views/load-chain-views.js";
import { wireChainView } from "../onchain-views/wire-chain-view.js";
import { decodeOrdersCursor, encodeOrdersCursor } from "./orders-cursor.js";

export interface ListOrdersRequest {
  organization: string;
  subject: string;
  cursor?: string;
  limit: number;
}

interface ListedRow {
  hub_order_id: string;
  quote_id: string;
  lane: OrderListEntry["lane"];
  onchain_order_id: string | null;
  onchain_order_id_source: "upstream" | "verified" | null;
  submitted_at: Date | string;
  submitted_us: string;
  winner: unknown;
  state: OrderListEntry["state"] | null;
}

interface WinnerTerms {
  input?: { asset: string; amount: string };
  swapInput?: OrderListEntry["swapInput"];
}

function parseJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

function entryOf(row: ListedRow): OrderListEntry {
  const winner = parseJson<WinnerTerms>(row.winner);
  const inputs: OrderListEntry["inputs"] = [];
  if (winner.input) {
    const { asset, amount } = winner.input;
    inputs.push({ chainDomain: asset.slice(0, asset.indexOf("/")), asset, amount });
  }
  const entry: OrderListEntry = {
    orderId: row.hub_order_id,
    quoteId: row.quote_id,
    lane: row.lane,
    onchainOrderId: row.onchain_order_id as string,
    onchainOrderIdSource: row.onchain_order_id_source ?? "upstream",
    submittedAt: new Date(row.submitted_at).toISOString(),
    state: row.state ?? "created",
    inputs,
  };
  if (winner.swapInput) entry.swapInput = winner.swapInput;
  return entry;
}

/**
 * One page of GET /orders: the organization's acked openFor submissions under the subject, by
 * (submittedAt, orderId) ascending, each joined with its chain facts read in one batch for the page.
 */
export async function listOrdersPage(sql: SqlExecutor, request: ListOrdersRequest): Promise<OrdersList> {
  const after = request.cursor === undefined ? undefined : decodeOrdersCursor(request.cursor);
  const params = [request.organization, request.subject, request.limit + 1] as (string | number)[];
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
  const page = rows.slice(0, request.limit);
  const { views } = await loadChainViews(
    sql,
    page.map((row) => row.onchain_order_id as string),
  );
  const orders = page.map((row) => {
    const entry = entryOf(row);
    const loaded = views.get(entry.onchainOrderId);
    if (loaded) entry.chain = wireChainView(loaded);
    return entry;
  });
  const last = page.at(-1);
  const nextCursor =
    rows.length > request.limit && last
      ? encodeOrdersCursor({ submittedAtMicros: last.submitted_us, hubOrderId: last.hub_order_id })
      : null;
  return { subject: request.subject, orders, nextCursor };
}
