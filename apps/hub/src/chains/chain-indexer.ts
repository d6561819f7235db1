import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import type { ChainFactsStore } from "../store/chain-facts-store.js";
import type { ChainIndexState, ChainProgress } from "./chain-progress.js";

/** What the reconciler lends a chain's indexer for one pass: the store, its lease, the chain's state. */
export interface ChainIndexContext {
  store: ChainFactsStore;
  clock: Clock;
  logger: Pick<Logger, "debug" | "info" | "warn" | "error">;
  lease: { name: string; holder: string };
  /** False once the lease is lost: nothing more is written this pass. */
  holdLease(): Promise<boolean>;
  stopping(): boolean;
  state: ChainIndexState | undefined;
}

/** One chain as the reconciler indexes it, whatever its family; a family makes one per chain. */
export interface ChainIndexer {
  readonly chainDomain: string;
  /** One pass: the chain's facts from its watermark up to its safe head. */
  index(context: ChainIndexContext): Promise<ChainProgress>;
}
