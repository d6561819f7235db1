import type { Counters, WindowCount } from "../counters.js";
import { windowStart } from "../window-start.js";
import {
  type MemoryCountersState,
  sweepIdleEntries,
  touchEntry,
  type WindowState,
} from "./memory-counters-state.js";

function currentWindow(
  state: MemoryCountersState,
  key: string,
  windowMs: number,
  nowMs: number,
): WindowState | undefined {
  const window = state.windows.get(key);
  if (!window) return undefined;
  return window.windowStartMs === windowStart(nowMs, windowMs) ? window : undefined;
}

/** The fixed windows, in memory. */
export function memoryWindowCounters(state: MemoryCountersState): Pick<Counters, "hit" | "release" | "peek"> {
  return {
    async hit(key, windowMs): Promise<WindowCount> {
      const nowMs = state.clock.now();
      sweepIdleEntries(state, nowMs);
      const startMs = windowStart(nowMs, windowMs);
      const window = currentWindow(state, key, windowMs, nowMs) ?? {
        windowStartMs: startMs,
        count: 0,
        expiresAtMs: startMs + windowMs,
      };
      window.count += 1;
      touchEntry(state, state.windows, key, window);
      return { count: window.count, windowEndMs: window.expiresAtMs };
    },

    async release(key, windowMs, windowEndMs) {
      const window = currentWindow(state, key, windowMs, state.clock.now());
      if (window && window.expiresAtMs === windowEndMs && window.count > 0) window.count -= 1;
    },

    async peek(key, windowMs): Promise<WindowCount> {
      const nowMs = state.clock.now();
      const startMs = windowStart(nowMs, windowMs);
      const window = currentWindow(state, key, windowMs, nowMs);
      return { count: window?.count ?? 0, windowEndMs: startMs + windowMs };
    },
  };
}
