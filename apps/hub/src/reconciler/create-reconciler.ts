import type { ChainIndexState } from "../chains/chain-progress.js";
import { createReconcilerState } from "./create-reconciler-state.js";
import type { ReconcilerDeps } from "./reconciler-deps.js";
import { startReconciler, stopReconciler } from "./start-reconciler.js";
import { tick } from "./tick.js";
import type { TickResult } from "./tick-result.js";

export type { ChainIndexState, ChainProgress } from "../chains/chain-progress.js";
export type { ReconcilerChainConfig } from "../chains/evm/reconciler-chain-config.js";
export { ReorgBeyondKeptBlocksError } from "../chains/evm/reorg-beyond-kept-blocks-error.js";
export type { ReconcilerDeps } from "./reconciler-deps.js";
export type { TickResult } from "./tick-result.js";

export interface Reconciler {
  readonly instanceId: string;
  /** Whether this instance held the lease at its last tick (only the leader indexes). */
  readonly leader: boolean;
  /** Each configured chain's last known indexing state. */
  chainStates(): ChainIndexState[];
  /** Starts the poll loop (a tick now, then one every pollIntervalMs after the previous ends). */
  start(): void;
  /** Ends the loop, waits for a running tick, and gives the lease up. */
  stop(): Promise<void>;
  /** One pass: take or renew the lease, then index every chain up to its safe head. */
  tick(): Promise<TickResult>;
}

export function createReconciler(deps: ReconcilerDeps): Reconciler {
  const state = createReconcilerState(deps);
  return {
    instanceId: state.lease.holder,
    get leader() {
      return state.leader;
    },
    chainStates: () => [...state.states.values()].map((chainState) => ({ ...chainState })),
    start: () => startReconciler(state),
    stop: () => stopReconciler(state),
    tick: () => tick(state),
  };
}
