import type { SlidingCount } from "@hub/counters";
import { addressKey } from "../address-key.js";
import type { ApiCallState } from "./api-call-state.js";

/** How many lockout keys are kept at most. */
const KEPT_COUNTER_KEYS = 10_000;

function lockoutKey(state: ApiCallState, ip: string): string {
  let key = state.lockoutKeys.get(ip);
  if (key === undefined) {
    if (state.lockoutKeys.size >= KEPT_COUNTER_KEYS) state.lockoutKeys.clear();
    key = `gw:lockout:${addressKey(ip)}`;
    state.lockoutKeys.set(ip, key);
  }
  return key;
}

/** The address's failures in the lockout window, without counting this call. */
export function peekLockout(state: ApiCallState, ip: string): Promise<SlidingCount> {
  const { config } = state;
  return state.counters.peekSliding(lockoutKey(state, ip), config.lockoutWindowMs, config.lockoutFailures);
}

/** Counts a failed credential against the address. */
export async function countLockoutFailure(state: ApiCallState, ip: string): Promise<void> {
  const { config } = state;
  await state.counters.hitSliding(lockoutKey(state, ip), config.lockoutWindowMs, config.lockoutFailures);
}
