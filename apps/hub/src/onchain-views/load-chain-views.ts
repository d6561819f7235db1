import type { ChainFacts } from "../status-rules/chain-facts.js";
import { type ChainView, deriveChainView } from "../status-rules/derive-chain-view.js";
import type { ChainFactsStore, ChainWatermark } from "../store/chain-facts-store.js";

export interface LoadedChainView {
  facts: ChainFacts;
  view: ChainView;
}

export interface LoadedChainViews {
  views: Map<string, LoadedChainView>;
  watermarks: ChainWatermark[];
}

/** Chain facts and their derived views for several on-chain ids (one batch of reads), with every watermark. */
export async function loadChainViews(
  store: ChainFactsStore,
  onchainOrderIds: readonly string[],
): Promise<LoadedChainViews> {
  const [facts, watermarks] = await Promise.all([
    store.readChainFacts(onchainOrderIds),
    store.listWatermarks(),
  ]);
  const until = new Map(watermarks.map((watermark) => [watermark.oifChainId, watermark.lastBlockTimestamp]));
  const views = new Map<string, LoadedChainView>();
  for (const [id, orderFacts] of facts) {
    const view = deriveChainView(orderFacts, until);
    if (view) views.set(id, { facts: orderFacts, view });
  }
  return { views, watermarks };
}
