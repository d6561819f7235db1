import type { SqlClient } from "@hub/store";
import { type ChainView, deriveChainView } from "../status-rules/index.js";
import { createChainFactsStore } from "../store/chain-facts-store.js";
import { chainFinality } from "./load-chain-views.js";

/** The chain objects of several orders (list entries); ids without facts are absent from the map. */
export async function getChainViews(
  sql: SqlClient,
  onchainOrderIds: readonly string[],
): Promise<Map<string, ChainView>> {
  const store = createChainFactsStore(sql);
  const [facts, watermarks] = await Promise.all([
    store.readChainFacts(onchainOrderIds),
    store.listWatermarks(),
  ]);
  const { until, finalBlocks } = chainFinality(watermarks);
  const views = new Map<string, ChainView>();
  for (const [id, orderFacts] of facts) {
    const view = deriveChainView(orderFacts, until, finalBlocks);
    if (view) views.set(id, view);
  }
  return views;
}

/** The chain object of one order (status, fills, settle, refund, deadlines), or undefined: no chain object. */
export async function getChainFacts(sql: SqlClient, onchainOrderId: string): Promise<ChainView | undefined> {
  return (await getChainViews(sql, [onchainOrderId])).get(onchainOrderId);
}
