import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, describe, test } from "node:test";
import { type Clock, createAdjustableClock } from "@hub/clock";
import { Redis } from "ioredis";
import { type Counters, createMemoryCounters, createRedisCounters } from "../src/index.js";

interface Backend {
  name: string;
  skip: string | false;
  make(clock: Clock, bucketIdleMs?: number): Counters;
}

const redisUrl = process.env.REDIS_URL;
const redis = redisUrl ? new Redis(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false }) : undefined;
after(async () => {
  await redis?.quit();
});

const backends: Backend[] = [
  {
    name: "memory",
    skip: false,
    make: (clock, bucketIdleMs) => createMemoryCounters({ bucketIdleMs }, { clock }),
  },
  {
    name: "redis",
    skip: redis ? false : "REDIS_URL is not set",
    make: (clock, bucketIdleMs) =>
      createRedisCounters(
        { prefix: `test:counters:${randomUUID()}:`, bucketIdleMs },
        { redis: redis!, clock },
      ),
  },
];

function manualClock(startMs = 1_700_000_000_000) {
  return createAdjustableClock({ now: () => startMs });
}

const rule = { ratePerSecond: 5, burst: 20 };

for (const backend of backends) {
  describe(`counters (${backend.name})`, { skip: backend.skip }, () => {
    test("a bucket allows its burst, then refuses with the wait for the next token", async () => {
      const clock = manualClock();
      const counters = backend.make(clock);
      for (let i = 0; i < 20; i++) {
        const result = await counters.take("k", rule);
        assert.equal(result.allowed, true);
        assert.equal(result.remaining, 19 - i);
        assert.equal(result.limit, 20);
      }
      const refused = await counters.take("k", rule);
      assert.deepEqual(refused, {
        allowed: false,
        limit: 20,
        remaining: 0,
        resetSeconds: 4,
        retryAfterMs: 200,
      });
    });

    test("a bucket refills at its rate on the injected clock", async () => {
      const clock = manualClock();
      const counters = backend.make(clock);
      for (let i = 0; i < 20; i++) await counters.take("k", rule);
      clock.advance(199);
      assert.equal((await counters.take("k", rule)).allowed, false);
      clock.advance(1);
      assert.equal((await counters.take("k", rule)).allowed, true);
      clock.advance(1000);
      const result = await counters.take("k", rule, 0);
      assert.equal(result.remaining, 5);
    });

    test("buckets at different keys are independent", async () => {
      const clock = manualClock();
      const counters = backend.make(clock);
      for (let i = 0; i < 20; i++) await counters.take("a", rule);
      assert.equal((await counters.take("a", rule)).allowed, false);
      assert.equal((await counters.take("b", rule)).remaining, 19);
    });

    test("a cost above one spends that many tokens and a refused cost spends none", async () => {
      const clock = manualClock();
      const counters = backend.make(clock);
      assert.equal((await counters.take("k", rule, 18)).remaining, 2);
      const refused = await counters.take("k", rule, 3);
      assert.equal(refused.allowed, false);
      assert.equal(refused.retryAfterMs, 200);
      assert.equal((await counters.take("k", rule, 2)).allowed, true);
    });

    test("concurrent takes never spend more than the burst", async () => {
      const clock = manualClock();
      const counters = backend.make(clock);
      const results = await Promise.all(Array.from({ length: 50 }, () => counters.take("k", rule)));
      assert.equal(results.filter((r) => r.allowed).length, 20);
    });

    test("a bucket idle for the idle time is dropped and starts full", async () => {
      const clock = manualClock();
      const counters = backend.make(clock, 600_000);
      for (let i = 0; i < 20; i++) await counters.take("k", { ratePerSecond: 0.001, burst: 20 });
      clock.advance(599_000);
      assert.equal((await counters.take("k", { ratePerSecond: 0.001, burst: 20 }, 0)).remaining, 0);
      clock.advance(600_000);
      assert.equal((await counters.take("k", { ratePerSecond: 0.001, burst: 20 }, 0)).remaining, 20);
    });

    test("a fixed window counts hits and says when it ends", async () => {
      const clock = manualClock(60_000 * 1_000_000 + 10_000);
      const counters = backend.make(clock);
      assert.deepEqual(await counters.peek("ip", 60_000), { count: 0, windowEndMs: 60_000 * 1_000_001 });
      for (let i = 1; i <= 3; i++) {
        assert.deepEqual(await counters.hit("ip", 60_000), { count: i, windowEndMs: 60_000 * 1_000_001 });
      }
      assert.deepEqual(await counters.peek("ip", 60_000), { count: 3, windowEndMs: 60_000 * 1_000_001 });
    });

    test("a release takes back one hit of its own window only, never below zero", async () => {
      const clock = manualClock(60_000 * 1_000_000 + 10_000);
      const counters = backend.make(clock);
      const first = await counters.hit("attempt", 60_000);
      await counters.hit("attempt", 60_000);
      await counters.release("attempt", 60_000, first.windowEndMs);
      assert.equal((await counters.peek("attempt", 60_000)).count, 1);
      await counters.release("attempt", 60_000, first.windowEndMs);
      await counters.release("attempt", 60_000, first.windowEndMs);
      assert.equal((await counters.peek("attempt", 60_000)).count, 0, "never below zero");
      await counters.hit("attempt", 60_000);
      clock.advance(60_000);
      await counters.hit("attempt", 60_000);
      await counters.release("attempt", 60_000, first.windowEndMs);
      assert.equal(
        (await counters.peek("attempt", 60_000)).count,
        1,
        "an ended window's release changes nothing now",
      );
    });

    test("a new window starts from zero at the window's end", async () => {
      const clock = manualClock(60_000 * 1_000_000 + 59_999);
      const counters = backend.make(clock);
      await counters.hit("ip", 60_000);
      await counters.hit("ip", 60_000);
      clock.advance(1);
      assert.deepEqual(await counters.peek("ip", 60_000), { count: 0, windowEndMs: 60_000 * 1_000_002 });
      assert.equal((await counters.hit("ip", 60_000)).count, 1);
    });

    test("a sliding window counts 19 events at the end of one minute and 19 at the start of the next together", async () => {
      const clock = manualClock(60_000 * 1_000_000 + 50_000);
      const counters = backend.make(clock);
      for (let i = 0; i < 19; i++) await counters.hitSliding("ip", 60_000, 20);
      clock.advance(15_000);
      for (let i = 0; i < 18; i++) await counters.hitSliding("ip", 60_000, 20);
      assert.deepEqual(await counters.peekSliding("ip", 60_000, 20), {
        count: 20,
        belowLimitAtMs: 60_000 * 1_000_000 + 50_000 + 60_000,
      });
      assert.deepEqual(await counters.hitSliding("ip", 60_000, 20), {
        count: 20,
        belowLimitAtMs: 60_000 * 1_000_000 + 50_000 + 60_000,
      });
    });

    test("a sliding count falls below the limit once the oldest of the newest limit events is a window old", async () => {
      const start = 1_700_000_000_000;
      const clock = manualClock(start);
      const counters = backend.make(clock);
      for (let i = 0; i < 5; i++) {
        await counters.hitSliding("ip", 60_000, 3);
        clock.advance(1_000);
      }
      // Events at +0…+4 s; the newest three are +2, +3 and +4 s.
      assert.deepEqual(await counters.peekSliding("ip", 60_000, 3), {
        count: 3,
        belowLimitAtMs: start + 62_000,
      });
      clock.advance(56_999);
      assert.equal((await counters.peekSliding("ip", 60_000, 3)).count, 3);
      clock.advance(1);
      assert.deepEqual(await counters.peekSliding("ip", 60_000, 3), {
        count: 2,
        belowLimitAtMs: start + 62_000,
      });
      clock.advance(2_000);
      assert.deepEqual(await counters.peekSliding("ip", 60_000, 3), {
        count: 0,
        belowLimitAtMs: start + 64_000,
      });
      assert.equal((await counters.peekSliding("other", 60_000, 3)).count, 0);
    });

    test("concurrent sliding hits are each counted once", async () => {
      const clock = manualClock();
      const counters = backend.make(clock);
      await Promise.all(Array.from({ length: 15 }, () => counters.hitSliding("ip", 60_000, 20)));
      assert.equal((await counters.peekSliding("ip", 60_000, 20)).count, 15);
    });

    test("concurrent hits are each counted once", async () => {
      const clock = manualClock();
      const counters = backend.make(clock);
      const counts = await Promise.all(Array.from({ length: 30 }, () => counters.hit("ip", 60_000)));
      assert.deepEqual(
        counts.map((c) => c.count).sort((a, b) => a - b),
        Array.from({ length: 30 }, (_, i) => i + 1),
      );
    });
  });
}

test("memory counters stay bounded: past the cap the least recently used bucket is dropped", async () => {
  const counters = createMemoryCounters({ maxEntries: 3 }, { clock: { now: () => 0 } });
  for (const key of ["a", "b", "c"]) await counters.take(key, rule, 20);
  await counters.take("a", rule, 0);
  await counters.take("d", rule, 20);
  assert.equal((await counters.take("a", rule, 0)).remaining, 0);
  assert.equal((await counters.take("b", rule, 0)).remaining, 20);
});

test("Redis frees an idle bucket's memory by a key TTL of the idle time", {
  skip: redis ? false : "REDIS_URL is not set",
}, async () => {
  const prefix = `test:counters:${randomUUID()}:`;
  const client = redis!;
  const counters = createRedisCounters({ prefix, bucketIdleMs: 600_000 }, { redis: client });
  await counters.take("k", rule);
  const ttl = await client.pttl(`${prefix}b:k`);
  assert.ok(ttl > 590_000 && ttl <= 600_000, `ttl ${ttl}`);
  const window = await counters.hit("ip", 60_000);
  assert.ok(window.windowEndMs > Date.now());
});
