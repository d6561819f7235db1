import { type LoadedChainViews, loadChainViews } from "../../onchain-views/load-chain-views.js";
import type { ChainFactsStore } from "../../store/chain-facts-store.js";

/** The reconciler's chain facts, when there is a database; without one, nothing was ever indexed. */
export interface OnchainFacts {
  readonly store: ChainFactsStore | undefined;
  load(orderId: string): Promise<LoadedChainViews>;
}

const noFacts: LoadedChainViews = { views: new Map(), watermarks: [] };

export function createOnchainFacts(store: ChainFactsStore | undefined): OnchainFacts {
  return {
    store,
    load: (orderId) => (store ? loadChainViews(store, [orderId]) : Promise.resolve(noFacts)),
  };
}
