import type { ChainIndexState } from "../chains/chain-progress.js";

/** What the operations metrics read of the reconciler running in this process. */
export interface ReconcilerView {
  readonly leader: boolean;
  chainStates(): ChainIndexState[];
}
