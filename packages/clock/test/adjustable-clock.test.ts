import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { createAdjustableClock } from "../src/index.js";

describe("adjustable clock", () => {
  test("runs with its base and reads base + offset after an advance", () => {
    let baseMs = 1_000;
    const clock = createAdjustableClock({ now: () => baseMs });
    assert.equal(clock.now(), 1_000);
    baseMs = 1_500;
    assert.equal(clock.now(), 1_500);
    clock.advance(250);
    assert.equal(clock.now(), 1_750);
    assert.equal(clock.offsetMs(), 250);
  });

  test("never moves back: a negative or non-finite advance throws and leaves the clock where it was", () => {
    const clock = createAdjustableClock({ now: () => 0 });
    clock.advance(10);
    for (const ms of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => clock.advance(ms), RangeError);
    }
    assert.equal(clock.now(), 10);
  });
});
