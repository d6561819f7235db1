import type { ChainProgress } from "../chains/chain-progress.js";
import { WatermarkConflictError } from "../store/chain-facts-store.js";
import { recordChainOutcome } from "./chain-health.js";
import type { ReconcilerState } from "./reconciler-state.js";

async function indexOne(state: ReconcilerState, chainDomain: string): Promise<ChainProgress> {
  const { deps } = state;
  const chainState = state.states.get(chainDomain);
  try {
    const indexer = state.indexers.get(chainDomain);
    const context = state.contexts.get(chainDomain);
    if (!indexer || !context) throw new Error(`no chain ${chainDomain}`);
    const progress = await indexer.index(context);
    if (chainState) recordChainOutcome(chainState, { ok: true }, deps.clock.now(), deps.logger);
    return progress;
  } catch (reason) {
    const error = reason instanceof Error ? reason.message : String(reason);
    // One line when the chain starts failing and one when it recovers, never one per pass.
    if (chainState) {
      const level = reason instanceof WatermarkConflictError ? "warn" : "error";
      recordChainOutcome(chainState, { ok: false, error, level }, deps.clock.now(), deps.logger);
    }
    return { chainDomain, ranges: 0, factsWritten: 0, error };
  }
}

/** Indexes one chain, after its previous pass ends: each chain runs on its own, never waiting for another. */
export function runChain(state: ReconcilerState, chainDomain: string): Promise<ChainProgress> {
  const previous = state.chainInFlight.get(chainDomain) ?? Promise.resolve(undefined);
  const next = previous.catch(() => undefined).then(() => indexOne(state, chainDomain));
  state.chainInFlight.set(chainDomain, next);
  return next;
}
