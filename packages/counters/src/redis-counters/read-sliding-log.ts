import type { Clock } from "@hub/clock";
import type { Redis } from "ioredis";
import type { SlidingCount } from "../counters.js";
import { slidingCount } from "../sliding-count.js";
import { runScript, slidingScript } from "./redis-scripts.js";

/** The sliding count at `logKey` now, after recording `event` when it is not empty. */
export async function readSlidingLog(
  redis: Redis,
  clock: Clock,
  logKey: string,
  windowMs: number,
  limit: number,
  event: string,
): Promise<SlidingCount> {
  const nowMs = clock.now();
  const flat = (await runScript(redis, slidingScript, logKey, [nowMs, windowMs, limit, event])) as string[];
  const times: number[] = [];
  for (let i = 1; i < flat.length; i += 2) times.push(Number(flat[i]));
  return slidingCount(times, windowMs, limit, nowMs);
}
