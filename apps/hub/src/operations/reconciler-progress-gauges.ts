import type { Clock } from "@hub/clock";
import { Gauge, type Registry } from "prom-client";
import type { ChainIndexState } from "../chains/chain-progress.js";
import type { ReconcilerView } from "./reconciler-view.js";

/** How far the reconciler has indexed each chain, and since when it is behind or failing (leader only). */
export function registerReconcilerProgressGauges(
  registry: Registry,
  reconciler: ReconcilerView,
  clock: Clock,
  staleAfterMs: number,
): void {
  const seconds = (ms: number) => ms / 1000;
  const chainGauge = (name: string, help: string, value: (state: ChainIndexState) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ["chain"] as const,
      registers: [registry],
      collect() {
        this.reset();
        // Only the leader indexes; a follower's view would be stale, so it reports nothing.
        if (!reconciler.leader) return;
        for (const state of reconciler.chainStates()) {
          const sample = value(state);
          if (sample !== undefined) this.labels(state.chainDomain).set(sample);
        }
      },
    });
  chainGauge(
    "hub_reconciler_lag_blocks",
    "Blocks between the chain's safe head and the reconciler's watermark, per chain (leader only).",
    (state) =>
      state.safeHead === undefined || state.indexedBlock === undefined
        ? undefined
        : Math.max(0, state.safeHead - state.indexedBlock),
  );
  chainGauge(
    "hub_reconciler_indexed_block",
    "The reconciler's watermark: the last block indexed, per chain (leader only).",
    (state) => state.indexedBlock,
  );
  chainGauge(
    "hub_reconciler_caught_up_timestamp_seconds",
    "When the reconciler last indexed the chain up to its safe head, per chain (leader only).",
    (state) => (state.caughtUpAtMs === undefined ? undefined : seconds(state.caughtUpAtMs)),
  );
  chainGauge(
    "hub_reconciler_lag_seconds",
    "Seconds since the reconciler last had the chain indexed up to its safe head, per chain (leader only): 0 right after a pass that caught up, and it grows while the chain is stuck or its RPC fails.",
    (state) => seconds(Math.max(0, clock.now() - (state.caughtUpAtMs ?? state.sinceMs ?? clock.now()))),
  );
  chainGauge(
    "hub_reconciler_last_success_timestamp_seconds",
    "When a pass over the chain last ended without an error, per chain (leader only; absent before the first).",
    (state) => (state.lastSuccessAtMs === undefined ? undefined : seconds(state.lastSuccessAtMs)),
  );
  chainGauge(
    "hub_reconciler_chain_failing",
    "1 while the chain's last pass failed (its RPC, or a check of what it read), else 0, per chain (leader only).",
    (state) => (state.failingSinceMs === undefined ? 0 : 1),
  );
  chainGauge(
    "hub_reconciler_chain_stale",
    "1 when the chain has had no successful pass for longer than HUB_CHAIN_STALE_SECONDS, whatever its block lag, else 0, per chain (leader only).",
    (state) => {
      const since = state.lastSuccessAtMs ?? state.sinceMs;
      return since !== undefined && clock.now() - since > staleAfterMs ? 1 : 0;
    },
  );
}
