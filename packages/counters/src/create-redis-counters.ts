import { randomUUID } from "node:crypto";
import { type Clock, systemClock } from "@hub/clock";
import type { Redis } from "ioredis";
import type { Counters } from "./counters.js";
import { readSlidingLog } from "./redis-counters/read-sliding-log.js";
import { hitScript, releaseScript, runScript, takeScript } from "./redis-counters/redis-scripts.js";
import { describeBucket } from "./take-tokens.js";
import { windowStart } from "./window-start.js";

/** Where the Redis counters keep their keys and how long an idle bucket lives. */
export interface RedisCountersConfig {
  /** Prepended to every key, so deployments (and parallel tests) never share counters. */
  readonly prefix: string;
  readonly bucketIdleMs?: number;
}

/**
 * Counters shared by every replica through Redis. The caller owns the client (and quits it); give
 * it a short command timeout, since a counter that cannot answer fails the call it guards.
 */
export function createRedisCounters(
  config: RedisCountersConfig,
  deps: { redis: Redis; clock?: Clock },
): Counters {
  const { redis } = deps;
  const clock = deps.clock ?? systemClock;
  const bucketIdleMs = config.bucketIdleMs ?? 600_000;

  function windowKey(key: string, windowMs: number, nowMs: number): string {
    return `${config.prefix}w:${windowMs}:${windowStart(nowMs, windowMs)}:${key}`;
  }

  function slidingKey(key: string, windowMs: number): string {
    return `${config.prefix}s:${windowMs}:${key}`;
  }

  return {
    async take(key, rule, cost = 1) {
      const answer = (await runScript(redis, takeScript, `${config.prefix}b:${key}`, [
        rule.ratePerSecond,
        rule.burst,
        cost,
        clock.now(),
        bucketIdleMs,
      ])) as [number, string];
      return describeBucket(Number(answer[1]), answer[0] === 1, rule, cost);
    },

    async hit(key, windowMs) {
      const nowMs = clock.now();
      const endMs = windowStart(nowMs, windowMs) + windowMs;
      // Relative expiry, so a test clock far from Redis's own still expires the key after the window.
      const count = (await runScript(redis, hitScript, windowKey(key, windowMs, nowMs), [
        endMs - nowMs + 1000,
      ])) as number;
      return { count, windowEndMs: endMs };
    },

    async release(key, windowMs, windowEndMs) {
      await runScript(redis, releaseScript, windowKey(key, windowMs, windowEndMs - windowMs), []);
    },

    async peek(key, windowMs) {
      const nowMs = clock.now();
      const value = await redis.get(windowKey(key, windowMs, nowMs));
      return {
        count: value === null ? 0 : Number(value),
        windowEndMs: windowStart(nowMs, windowMs) + windowMs,
      };
    },

    hitSliding(key, windowMs, limit) {
      return readSlidingLog(
        redis,
        clock,
        slidingKey(key, windowMs),
        windowMs,
        limit,
        `${clock.now()}:${randomUUID()}`,
      );
    },

    peekSliding(key, windowMs, limit) {
      return readSlidingLog(redis, clock, slidingKey(key, windowMs), windowMs, limit, "");
    },
  };
}
