import { takeLease } from "./hold-lease.js";
import { pruneQuotes } from "./prune-quotes.js";
import type { ReconcilerState } from "./reconciler-state.js";
import { runChain } from "./run-chain.js";
import type { TickResult } from "./tick-result.js";

async function runTick(state: ReconcilerState): Promise<TickResult> {
  const { deps } = state;
  if (!(await takeLease(state))) return { leader: false, chains: [], quotesPruned: 0 };
  const chains = await Promise.all(state.chainDomains.map((chainDomain) => runChain(state, chainDomain)));
  for (const progress of chains) {
    if (progress.ranges > 0) deps.logger.debug({ ...progress }, "reconciler indexed");
  }
  const quotesPruned = await pruneQuotes(state);
  if (!state.stopping) await deps.onLeaderTick?.();
  return { leader: true, chains, quotesPruned };
}

/** One pass, after the previous one ends: take or renew the lease, then index every chain up to its safe head. */
export function tick(state: ReconcilerState): Promise<TickResult> {
  const previous = state.inFlight ?? Promise.resolve(undefined);
  const next = previous.catch(() => undefined).then(() => runTick(state));
  state.inFlight = next;
  return next;
}
