import { type Clock, systemClock } from "@hub/clock";
import type { Counters } from "./counters.js";
import { memoryBucketCounters } from "./memory-counters/memory-bucket-counters.js";
import {
  createMemoryCountersState,
  type MemoryCountersConfig,
} from "./memory-counters/memory-counters-state.js";
import { memorySlidingCounters } from "./memory-counters/memory-sliding-counters.js";
import { memoryWindowCounters } from "./memory-counters/memory-window-counters.js";

export type { MemoryCountersConfig } from "./memory-counters/memory-counters-state.js";

/**
 * Counters for one process. Each map is kept in last-use order (delete then set on every touch), so
 * the idle sweep reads from the front and stops at the first live entry, and the size cap drops the
 * least recently used. No timer runs: sweeps happen on calls.
 */
export function createMemoryCounters(
  config: MemoryCountersConfig = {},
  deps: { clock?: Clock } = {},
): Counters {
  const state = createMemoryCountersState(config, deps.clock ?? systemClock);
  return {
    ...memoryBucketCounters(state),
    ...memoryWindowCounters(state),
    ...memorySlidingCounters(state),
  };
}
