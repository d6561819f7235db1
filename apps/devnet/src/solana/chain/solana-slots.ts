import type { SolanaChainState } from "./solana-chain-state.js";

/** The chain's time: the clock plus what increaseTime added. */
export function chainNow(state: SolanaChainState): number {
  return state.clock.now() + state.offsetMs;
}

/** The current slot, after counting the slots that passed since the last look. */
export function currentSlot(state: SolanaChainState): number {
  const elapsed = Math.floor((chainNow(state) - state.slotStartedMs) / state.slotMs);
  if (elapsed > 0) {
    state.slot += elapsed;
    state.slotStartedMs += elapsed * state.slotMs;
  }
  return state.slot;
}

/** Starts the slot a sent transaction lands in. */
export function openNextSlot(state: SolanaChainState): void {
  currentSlot(state);
  state.slot += 1;
  state.slotStartedMs = chainNow(state);
}

export function setClockSysvar(state: SolanaChainState): void {
  const clock = state.svm.getClock();
  clock.slot = BigInt(state.slot);
  clock.unixTimestamp = BigInt(Math.floor(chainNow(state) / 1000));
  state.svm.setClock(clock);
}

export function increaseChainTime(state: SolanaChainState, seconds: number): void {
  if (!Number.isInteger(seconds) || seconds < 0)
    throw new RangeError(`cannot move the chain's time by ${seconds} s`);
  state.offsetMs += seconds * 1000;
}
