import { takeLease } from "./hold-lease.js";
import { pruneQuotes } from "./prune-quotes.js";
import type { ReconcilerState } from "./reconciler-state.js";
import { runChain } from "./run-chain.js";

function logTickFailure(state: ReconcilerState, error: unknown): void {
  state.deps.logger.error(
    { error: error instanceof Error ? error.message : String(error) },
    "reconciler tick failed",
  );
}

/** The lease, quote pruning and the leader's jobs, every pollIntervalMs; chains index in their own loops. */
function leaseLoop(state: ReconcilerState): void {
  if (!state.running || state.stopping) return;
  const pass = (async () => {
    if (!(await takeLease(state))) return;
    await pruneQuotes(state);
    if (!state.stopping) await state.deps.onLeaderTick?.();
  })();
  // Settles either way: a lease the database cannot answer is logged below, never an unhandled rejection.
  state.inFlight = pass
    .catch(() => undefined)
    .then(() => ({ leader: state.leader, chains: [], quotesPruned: 0 }));
  pass
    .catch((error: unknown) => logTickFailure(state, error))
    .finally(() => {
      if (!state.running || state.stopping) return;
      state.timers.set(
        "lease",
        setTimeout(() => leaseLoop(state), state.pollIntervalMs),
      );
    });
}

function chainLoop(state: ReconcilerState, chainDomain: string): void {
  if (!state.running || state.stopping) return;
  const pass = state.leader ? runChain(state, chainDomain) : Promise.resolve(undefined);
  pass
    .then((progress) => {
      if (progress && progress.ranges > 0) state.deps.logger.debug({ ...progress }, "reconciler indexed");
    })
    .catch((error: unknown) => logTickFailure(state, error))
    .finally(() => {
      if (!state.running || state.stopping) return;
      state.timers.set(
        chainDomain,
        setTimeout(() => chainLoop(state, chainDomain), state.pollIntervalMs),
      );
    });
}

/** Starts the poll loops: the first lease attempt comes before any chain's first pass; then each runs on its own timer. */
export function startReconciler(state: ReconcilerState): void {
  if (state.running) return;
  state.running = true;
  state.stopping = false;
  const first = takeLease(state).catch((error: unknown) => {
    logTickFailure(state, error);
    return false;
  });
  state.inFlight = first.then(() => ({ leader: state.leader, chains: [], quotesPruned: 0 }));
  void first.then(() => {
    if (!state.running || state.stopping) return;
    state.timers.set(
      "lease",
      setTimeout(() => leaseLoop(state), state.pollIntervalMs),
    );
    for (const chainDomain of state.chainDomains) chainLoop(state, chainDomain);
  });
}

/** Ends the loops, waits for a running tick and every chain's pass, and gives the lease up. */
export async function stopReconciler(state: ReconcilerState): Promise<void> {
  state.stopping = true;
  state.running = false;
  for (const timer of state.timers.values()) clearTimeout(timer);
  state.timers.clear();
  await state.inFlight?.catch(() => undefined);
  await Promise.all([...state.chainInFlight.values()].map((pass) => pass.catch(() => undefined)));
  await state.store.releaseReconcilerLease(state.lease);
  state.leaseRenewedAt = 0;
  state.leader = false;
  state.stopping = false;
}
