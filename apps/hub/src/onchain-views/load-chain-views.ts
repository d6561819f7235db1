import type { ChainFacts } from "../status-rules/chain-facts.js";
import {
  type ChainView,
  deriveChainView,
  type FinalBlocks,
  type IndexedUntil,
} from "../status-rules/derive-chain-view.js";
import type { ChainFactsStore, ChainWatermark } from "../store/chain-facts-store.js";

export interface LoadedChainView {
  facts: ChainFacts;
  view: ChainView;
}

export interface LoadedChainViews {
  views: Map<string, LoadedChainView>;
  watermarks: ChainWatermark[];
}

/**
 * What the views need of the watermarks: per OIF chain id the timestamp of the newest final indexed
 * block (EXPIRED comes only from final blocks), and per chain domain its newest final block.
 */
export function chainFinality(watermarks: readonly ChainWatermark[]): {
  until: IndexedUntil;
  finalBlocks: FinalBlocks;
} {
  const until = new Map<string, number>();
  const finalBlocks = new Map<string, number>();
  for (const watermark of watermarks) {
    until.set(watermark.oifChainId, watermark.finalBlockTimestamp ?? watermark.lastBlockTimestamp);
    if (watermark.finalBlock !== undefined) finalBlocks.set(watermark.chainDomain, watermark.finalBlock);
  }
  return { until, finalBlocks };
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
  const { until, finalBlocks } = chainFinality(watermarks);
  const views = new Map<string, LoadedChainView>();
  for (const [id, orderFacts] of facts) {
    const view = deriveChainView(orderFacts, until, finalBlocks);
    if (view) views.set(id, { facts: orderFacts, view });
  }
  return { views, watermarks };
}
