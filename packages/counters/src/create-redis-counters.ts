import { createHash, randomUUID } from "node:crypto";
import { type Clock, systemClock } from "@hub/clock";
import type { Redis } from "ioredis";
import type { Counters, SlidingCount } from "./counters.js";
import { slidingCount } from "./sliding-count.js";
import { describeBucket } from "./take-tokens.js";
import { windowStart } from "./window-start.js";

/** Where the Redis counters keep their keys and how long an idle bucket lives. */
export interface RedisCountersConfig {
  /** Prepended to every key, so deployments (and parallel tests) never share counters. */
  readonly prefix: string;
  readonly bucketIdleMs?: number;
}

// The same rule as takeTokens, in one atomic round trip. Tokens are stored with 17 significant digits
// so Redis and memory round identically. The caller's clock decides idleness too (the TTL only frees
// the memory), so tests can inject a clock and both backends agree.
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local idle = tonumber(ARGV[5])
local saved = redis.call('HMGET', KEYS[1], 't', 'u')
local tokens = burst
local updated = now
local last = tonumber(saved[2])
if saved[1] and last and now - last < idle then
  local elapsed = now - last
  if elapsed < 0 then elapsed = 0 end
  tokens = math.min(burst, tonumber(saved[1]) + (elapsed * rate) / 1000)
  if last > now then updated = last end
end
local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
local text = string.format('%.17g', tokens)
redis.call('HSET', KEYS[1], 't', text, 'u', string.format('%.17g', updated))
redis.call('PEXPIRE', KEYS[1], idle)
return { allowed, text }
`;

const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return count
`;

// A sliding log in a sorted set scored by event time: drop what left the window, add the event (when
// ARGV[4] names one), keep the newest `limit`, and return the kept times, oldest first.
const SLIDING_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[1], now, ARGV[4])
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(limit + 1))
  redis.call('PEXPIRE', KEYS[1], window + 1000)
end
return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
`;

interface Script {
  readonly source: string;
  readonly sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

const take = script(TAKE_SCRIPT);
const hit = script(HIT_SCRIPT);
const sliding = script(SLIDING_SCRIPT);

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

  async function run(s: Script, key: string, args: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(s.sha, 1, key, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return await redis.eval(s.source, 1, key, ...args);
    }
  }

  function windowKey(key: string, windowMs: number, nowMs: number): string {
    return `${config.prefix}w:${windowMs}:${windowStart(nowMs, windowMs)}:${key}`;
  }

  async function slidingLog(
    key: string,
    windowMs: number,
    limit: number,
    event: string,
  ): Promise<SlidingCount> {
    const nowMs = clock.now();
    const flat = (await run(sliding, `${config.prefix}s:${windowMs}:${key}`, [
      nowMs,
      windowMs,
      limit,
      event,
    ])) as string[];
    const times: number[] = [];
    for (let i = 1; i < flat.length; i += 2) times.push(Number(flat[i]));
    return slidingCount(times, windowMs, limit, nowMs);
  }

  return {
    async take(key, rule, cost = 1) {
      const answer = (await run(take, `${config.prefix}b:${key}`, [
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
      const count = (await run(hit, windowKey(key, windowMs, nowMs), [endMs - nowMs + 1000])) as number;
      return { count, windowEndMs: endMs };
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
      return slidingLog(key, windowMs, limit, `${clock.now()}:${randomUUID()}`);
    },

    peekSliding(key, windowMs, limit) {
      return slidingLog(key, windowMs, limit, "");
    },
  };
}
