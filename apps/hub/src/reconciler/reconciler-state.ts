import type { ChainIndexContext, ChainIndexer } from "../chains/chain-indexer.js";
import type { ChainIndexState, ChainProgress } from "../chains/chain-progress.js";
import type { ChainFactsStore } from "../store/chain-facts-store.js";
import type { QuoteStore } from "../store/quote-store.js";
import type { ReconcilerDeps } from "./reconciler-deps.js";
import type { TickResult } from "./tick-result.js";

/** What one reconciler instance holds: its chains' indexers and states, the lease, its loops. */
export interface ReconcilerState {
  deps: ReconcilerDeps;
  store: ChainFactsStore;
  quotes: QuoteStore;
  pollIntervalMs: number;
  leaseTtlMs: number;
  lease: { name: string; holder: string };
  /** Every chain's domain, EVM chains first, in the order they were configured. */
  chainDomains: readonly string[];
  indexers: Map<string, ChainIndexer>;
  states: Map<string, ChainIndexState>;
  contexts: Map<string, ChainIndexContext>;
  leader: boolean;
  leaseRenewedAt: number;
  running: boolean;
  stopping: boolean;
  timers: Map<string, NodeJS.Timeout>;
  inFlight: Promise<TickResult> | undefined;
  chainInFlight: Map<string, Promise<ChainProgress>>;
}
