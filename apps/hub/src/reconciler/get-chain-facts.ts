import type { SqlExecutor } from "@hub/store";
import { type ChainView, deriveChainView, type IndexedUntil } from "../order-state/index.js";
import { listWatermarks } from "./get-watermark.js";
import { readChainFacts } from "./read-chain-facts.js";

async function indexedUntil(sql: SqlExecutor): Promise<IndexedUntil> {
  const watermarks = await listWatermarks(sql);
  return new Map(watermarks.map((watermark) => [String(watermark.chainId), watermark.lastBlockTimestamp]));
}

/** The chain objects of several orders (list entries); ids without facts are absent from the map. */
export async function getChainViews(
  sql: SqlExecutor,
  onchainOrderIds: readonly string[],
): Promise<Map<string, ChainView>> {
  const [facts, until] = await Promise.all([readChainFacts(sql, onchainOrderIds), indexedUntil(sql)]);
  const views = new Map<string, ChainView>();
  for (const [id, orderFacts] of facts) {
    const view = deriveChainView(orderFacts, until);
    if (view) views.set(id, view);
  }
  return views;
}

/** The chain object of one order (status, fills, settle, refund, deadlines), or undefined: no chain object. */
export async function getChainFacts(
  sql: SqlExecutor,
  onchainOrderId: string,
): Promise<ChainView | undefined> {
  return (await getChainViews(sql, [onchainOrderId])).get(onchainOrderId);
}
