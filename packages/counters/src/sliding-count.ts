import type { SlidingCount } from "./counters.js";

/**
 * The sliding count of a log of event times, ascending, holding at most the newest `limit`: an event
 * counts while it is younger than `windowMs`, so the count falls below `limit` when the oldest kept
 * event leaves the window.
 */
export function slidingCount(
  times: readonly number[],
  windowMs: number,
  limit: number,
  nowMs: number,
): SlidingCount {
  const live = times.filter((t) => t > nowMs - windowMs);
  const count = Math.min(live.length, limit);
  const oldest = live[live.length - count];
  return { count, belowLimitAtMs: count >= limit && oldest !== undefined ? oldest + windowMs : nowMs };
}
