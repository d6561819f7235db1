import type { Clock } from "@hub/clock";
import type { BucketState } from "../take-tokens.js";

/** Limits of the in-memory counters. */
export interface MemoryCountersConfig {
  /** A bucket untouched this long is dropped (the spec's 600 s idle rule). */
  readonly bucketIdleMs?: number;
  /** Most buckets and windows held at once; past it the least recently used are dropped. */
  readonly maxEntries?: number;
  /** How often, at most, a call sweeps idle entries. */
  readonly sweepIntervalMs?: number;
}

export interface SlidingLog {
  times: number[];
  expiresAtMs: number;
}

export interface WindowState {
  windowStartMs: number;
  count: number;
  expiresAtMs: number;
}

/** The buckets, fixed windows and sliding logs of one process, each map in last-use order. */
export interface MemoryCountersState {
  readonly clock: Clock;
  readonly bucketIdleMs: number;
  readonly maxEntries: number;
  readonly sweepIntervalMs: number;
  readonly buckets: Map<string, BucketState>;
  readonly windows: Map<string, WindowState>;
  readonly logs: Map<string, SlidingLog>;
  lastSweepMs: number;
}

export function createMemoryCountersState(config: MemoryCountersConfig, clock: Clock): MemoryCountersState {
  return {
    clock,
    bucketIdleMs: config.bucketIdleMs ?? 600_000,
    maxEntries: config.maxEntries ?? 100_000,
    sweepIntervalMs: config.sweepIntervalMs ?? 1_000,
    buckets: new Map(),
    windows: new Map(),
    logs: new Map(),
    lastSweepMs: Number.NEGATIVE_INFINITY,
  };
}

/** Drops idle buckets and ended windows and logs, reading each map from its least recently used end. */
export function sweepIdleEntries(state: MemoryCountersState, nowMs: number): void {
  if (nowMs - state.lastSweepMs < state.sweepIntervalMs) return;
  state.lastSweepMs = nowMs;
  for (const [key, bucket] of state.buckets) {
    if (nowMs - bucket.updatedAtMs < state.bucketIdleMs) break;
    state.buckets.delete(key);
  }
  for (const [key, window] of state.windows) {
    if (window.expiresAtMs > nowMs) break;
    state.windows.delete(key);
  }
  for (const [key, log] of state.logs) {
    if (log.expiresAtMs > nowMs) break;
    state.logs.delete(key);
  }
}

/** Stores the entry as the most recently used, dropping the least recently used past the cap. */
export function touchEntry<V>(state: MemoryCountersState, map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > state.maxEntries) {
    const oldest = map.keys().next();
    if (oldest.done) return;
    map.delete(oldest.value);
  }
}
