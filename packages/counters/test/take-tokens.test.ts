import assert from "node:assert/strict";
import { test } from "node:test";
import { type BucketState, takeTokens } from "../src/index.js";

const rule = { ratePerSecond: 5, burst: 20 };

// One row per case of the rule: [what it protects, state before, cost, now, allowed, remaining, resetSeconds, retryAfterMs, tokens after]
// biome-ignore format: one row per case reads as a table
const rows: [string, BucketState | undefined, number, number, boolean, number, number, number, number][] = [
  ["a new bucket starts full and spends one token", undefined, 1, 1000, true, 19, 1, 0, 19],
  ["a take of the last token is allowed", { tokens: 1, updatedAtMs: 1000 }, 1, 1000, true, 0, 4, 0, 0],
  ["an empty bucket refuses and says when one token is back", { tokens: 0, updatedAtMs: 1000 }, 1, 1000, false, 0, 4, 200, 0],
  ["refill is rate per second, proportional to elapsed time", { tokens: 0, updatedAtMs: 1000 }, 1, 1200, true, 0, 4, 0, 0],
  ["a partial token is not enough and the wait covers the rest", { tokens: 0.5, updatedAtMs: 1000 }, 1, 1000, false, 0, 4, 100, 0.5],
  ["refill never passes the burst", { tokens: 19, updatedAtMs: 0 }, 1, 1_000_000, true, 19, 1, 0, 19],
  ["a cost larger than one spends that many tokens", { tokens: 20, updatedAtMs: 1000 }, 5, 1000, true, 15, 1, 0, 15],
  ["a cost above the tokens held refuses and spends nothing", { tokens: 3, updatedAtMs: 1000 }, 5, 1000, false, 3, 4, 400, 3],
  ["cost 0 reads the bucket without spending", { tokens: 7, updatedAtMs: 1000 }, 0, 1000, true, 7, 3, 0, 7],
  ["a clock behind the bucket's own refills nothing", { tokens: 2, updatedAtMs: 5000 }, 1, 4000, true, 1, 4, 0, 1],
];

for (const [name, before, cost, nowMs, allowed, remaining, resetSeconds, retryAfterMs, tokensAfter] of rows) {
  test(`token bucket: ${name}`, () => {
    const { state, result } = takeTokens(before, rule, cost, nowMs);
    assert.deepEqual(result, { allowed, limit: 20, remaining, resetSeconds, retryAfterMs });
    assert.equal(state.tokens, tokensAfter);
  });
}

test("token bucket: time never runs backwards for a bucket (no double refill across skewed clocks)", () => {
  const { state } = takeTokens({ tokens: 2, updatedAtMs: 5000 }, rule, 1, 4000);
  assert.equal(state.updatedAtMs, 5000);
});
