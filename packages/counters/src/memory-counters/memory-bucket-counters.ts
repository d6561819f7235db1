import type { Counters } from "../counters.js";
import { takeTokens } from "../take-tokens.js";
import { type MemoryCountersState, sweepIdleEntries, touchEntry } from "./memory-counters-state.js";

/** The token buckets, in memory. */
export function memoryBucketCounters(state: MemoryCountersState): Pick<Counters, "take"> {
  return {
    async take(key, rule, cost = 1) {
      const nowMs = state.clock.now();
      sweepIdleEntries(state, nowMs);
      let bucket = state.buckets.get(key);
      if (bucket && nowMs - bucket.updatedAtMs >= state.bucketIdleMs) bucket = undefined;
      const taken = takeTokens(bucket, rule, cost, nowMs);
      touchEntry(state, state.buckets, key, taken.state);
      return taken.result;
    },
  };
}
