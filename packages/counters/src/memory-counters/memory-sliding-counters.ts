import type { Counters, SlidingCount } from "../counters.js";
import { slidingCount } from "../sliding-count.js";
import { type MemoryCountersState, sweepIdleEntries, touchEntry } from "./memory-counters-state.js";

/** The sliding logs, in memory. */
export function memorySlidingCounters(
  state: MemoryCountersState,
): Pick<Counters, "hitSliding" | "peekSliding"> {
  return {
    async hitSliding(key, windowMs, limit): Promise<SlidingCount> {
      const nowMs = state.clock.now();
      sweepIdleEntries(state, nowMs);
      const times = (state.logs.get(key)?.times ?? []).filter((t) => t > nowMs - windowMs);
      const at = times.findLastIndex((t) => t <= nowMs) + 1;
      times.splice(at, 0, nowMs);
      if (times.length > limit) times.splice(0, times.length - limit);
      touchEntry(state, state.logs, key, {
        times,
        expiresAtMs: Math.max(nowMs, ...times.slice(-1)) + windowMs,
      });
      return slidingCount(times, windowMs, limit, nowMs);
    },

    async peekSliding(key, windowMs, limit): Promise<SlidingCount> {
      const nowMs = state.clock.now();
      return slidingCount(state.logs.get(key)?.times ?? [], windowMs, limit, nowMs);
    },
  };
}
