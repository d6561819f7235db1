import { type Clock, systemClock } from "@hub/clock";
import type { Counters, SlidingCount, WindowCount } from "./counters.js";
import { slidingCount } from "./sliding-count.js";
import { type BucketState, takeTokens } from "./take-tokens.js";
import { windowStart } from "./window-start.js";

/** Limits of the in-memory counters. */
export interface MemoryCountersConfig {
  /** A bucket untouched this long is dropped (the spec's 600 s idle rule). */
  readonly bucketIdleMs?: number;
  /** Most buckets and windows held at once; past it the least recently used are dropped. */
  readonly maxEntries?: number;
  /** How often, at most, a call sweeps idle entries. */
  readonly sweepIntervalMs?: number;
}

interface SlidingLog {
  times: number[];
  expiresAtMs: number;
}

interface WindowState {
  windowStartMs: number;
  count: number;
  expiresAtMs: number;
}

/**
 * Counters for one process. Each map is kept in last-use order (delete then set on every touch), so
 * the idle sweep reads from the front and stops at the first live entry, and the size cap drops the
 * least recently used. No timer runs: sweeps happen on calls.
 */
export function createMemoryCounters(
  config: MemoryCountersConfig = {},
  deps: { clock?: Clock } = {},
): Counters {
  const clock = deps.clock ?? systemClock;
  const bucketIdleMs = config.bucketIdleMs ?? 600_000;
  const maxEntries = config.maxEntries ?? 100_000;
  const sweepIntervalMs = config.sweepIntervalMs ?? 1_000;
  const buckets = new Map<string, BucketState>();
  const windows = new Map<string, WindowState>();
  const logs = new Map<string, SlidingLog>();
  let lastSweepMs = Number.NEGATIVE_INFINITY;

  function sweep(nowMs: number): void {
    if (nowMs - lastSweepMs < sweepIntervalMs) return;
    lastSweepMs = nowMs;
    for (const [key, state] of buckets) {
      if (nowMs - state.updatedAtMs < bucketIdleMs) break;
      buckets.delete(key);
    }
    for (const [key, state] of windows) {
      if (state.expiresAtMs > nowMs) break;
      windows.delete(key);
    }
    for (const [key, log] of logs) {
      if (log.expiresAtMs > nowMs) break;
      logs.delete(key);
    }
  }

  function cap<V>(map: Map<string, V>): void {
    while (map.size > maxEntries) {
      const oldest = map.keys().next();
      if (oldest.done) return;
      map.delete(oldest.value);
    }
  }

  function currentWindow(key: string, windowMs: number, nowMs: number): WindowState | undefined {
    const state = windows.get(key);
    if (!state) return undefined;
    return state.windowStartMs === windowStart(nowMs, windowMs) ? state : undefined;
  }

  return {
    async take(key, rule, cost = 1) {
      const nowMs = clock.now();
      sweep(nowMs);
      let state = buckets.get(key);
      if (state && nowMs - state.updatedAtMs >= bucketIdleMs) state = undefined;
      const taken = takeTokens(state, rule, cost, nowMs);
      buckets.delete(key);
      buckets.set(key, taken.state);
      cap(buckets);
      return taken.result;
    },

    async hit(key, windowMs): Promise<WindowCount> {
      const nowMs = clock.now();
      sweep(nowMs);
      const startMs = windowStart(nowMs, windowMs);
      const state = currentWindow(key, windowMs, nowMs) ?? {
        windowStartMs: startMs,
        count: 0,
        expiresAtMs: startMs + windowMs,
      };
      state.count += 1;
      windows.delete(key);
      windows.set(key, state);
      cap(windows);
      return { count: state.count, windowEndMs: state.expiresAtMs };
    },

    async peek(key, windowMs): Promise<WindowCount> {
      const nowMs = clock.now();
      const startMs = windowStart(nowMs, windowMs);
      const state = currentWindow(key, windowMs, nowMs);
      return { count: state?.count ?? 0, windowEndMs: startMs + windowMs };
    },

    async hitSliding(key, windowMs, limit): Promise<SlidingCount> {
      const nowMs = clock.now();
      sweep(nowMs);
      const times = (logs.get(key)?.times ?? []).filter((t) => t > nowMs - windowMs);
      let at = times.length;
      while (at > 0 && times[at - 1]! > nowMs) at -= 1;
      times.splice(at, 0, nowMs);
      if (times.length > limit) times.splice(0, times.length - limit);
      logs.delete(key);
      logs.set(key, { times, expiresAtMs: Math.max(nowMs, times.at(-1)!) + windowMs });
      cap(logs);
      return slidingCount(times, windowMs, limit, nowMs);
    },

    async peekSliding(key, windowMs, limit): Promise<SlidingCount> {
      const nowMs = clock.now();
      return slidingCount(logs.get(key)?.times ?? [], windowMs, limit, nowMs);
    },
  };
}
