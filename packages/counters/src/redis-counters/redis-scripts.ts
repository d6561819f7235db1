import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

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

const RELEASE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]))
if count and count > 0 then redis.call('DECR', KEYS[1]) end
return 0
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

export interface Script {
  readonly source: string;
  readonly sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

export const takeScript = script(TAKE_SCRIPT);
export const hitScript = script(HIT_SCRIPT);
export const releaseScript = script(RELEASE_SCRIPT);
export const slidingScript = script(SLIDING_SCRIPT);

/** Runs the script by its hash, sending its source only when Redis has not cached it yet. */
export async function runScript(
  redis: Redis,
  s: Script,
  key: string,
  args: (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(s.sha, 1, key, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
    return await redis.eval(s.source, 1, key, ...args);
  }
}
