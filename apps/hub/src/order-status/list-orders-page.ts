import type { OrderListEntry, OrdersList } from "@hub/contract";
import { loadChainViews } from "../onchain-views/load-chain-views.js";
import { wireChainView } from "../onchain-views/wire-chain-view.js";
import type { ChainFactsStore } from "../store/chain-facts-store.js";
import type { FollowedOrderStore, ListedOrder } from "../store/followed-order-store.js";
import { decodeOrdersCursor, encodeOrdersCursor } from "./orders-cursor.js";

export interface ListOrdersRequest {
  organization: string;
  subject: string;
  cursor?: string;
  limit: number;
}

interface WinnerTerms {
  input?: { asset: string; amount: string };
  swapInput?: OrderListEntry["swapInput"];
}

function entryOf(row: ListedOrder): OrderListEntry {
  const winner = row.winner as WinnerTerms;
  const inputs: OrderListEntry["inputs"] = [];
  if (winner.input) {
    const { asset, amount } = winner.input;
    inputs.push({ chainDomain: asset.slice(0, asset.indexOf("/")), asset, amount });
  }
  const entry: OrderListEntry = {
    orderId: row.hubOrderId,
    quoteId: row.quoteId,
    lane: row.lane,
    onchainOrderId: row.onchainOrderId,
    onchainOrderIdSource: row.onchainOrderIdSource ?? "upstream",
    submittedAt: row.submittedAt.toISOString(),
    state: row.upstreamState ?? "created",
    inputs,
  };
  if (winner.swapInput) entry.swapInput = winner.swapInput;
  return entry;
}

/**
 * One page of GET /orders: the organization's acked openFor submissions under the subject, by
 * (submittedAt, orderId) ascending, each joined with its chain facts read in one batch for the page.
 */
export async function listOrdersPage(
  stores: { orders: FollowedOrderStore; chainFacts: ChainFactsStore },
  request: ListOrdersRequest,
): Promise<OrdersList> {
  const rows = await stores.orders.listFollowedOrders({
    organization: request.organization,
    subject: request.subject,
    after: request.cursor === undefined ? undefined : decodeOrdersCursor(request.cursor),
    limit: request.limit + 1,
  });
  const page = rows.slice(0, request.limit);
  const { views } = await loadChainViews(
    stores.chainFacts,
    page.map((row) => row.onchainOrderId),
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
      ? encodeOrdersCursor({ submittedAtMicros: last.submittedAtMicros, hubOrderId: last.hubOrderId })
      : null;
  return { subject: request.subject, orders, nextCursor };
}
