import type { ReconcilerState } from "./reconciler-state.js";

/** Renews the lease once a third of its time has passed (or now, when forced); false when another instance holds it. */
export async function holdLease(state: ReconcilerState, force: boolean): Promise<boolean> {
  const now = state.deps.clock.now();
  if (!force && now - state.leaseRenewedAt < state.leaseTtlMs / 3) return true;
  const held = await state.store.acquireReconcilerLease({ ...state.lease, ttlMs: state.leaseTtlMs });
  state.leaseRenewedAt = held ? now : 0;
  return held;
}

/** Takes or renews the lease now, and whether this instance leads. */
export async function takeLease(state: ReconcilerState): Promise<boolean> {
  // A lease that cannot be read is not held: the lag gauges stop reporting this instance's view.
  state.leader = await holdLease(state, true).catch((error: unknown) => {
    state.leader = false;
    throw error;
  });
  return state.leader;
}
