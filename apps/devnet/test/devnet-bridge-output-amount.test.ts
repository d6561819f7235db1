import assert from "node:assert/strict";
import { test } from "node:test";
import { bridgeOutputAmount } from "../src/bridge-output-amount.js";

test("the bridge releases the deposit less a fee rounded up, never more than the deposit", () => {
  const rows: Array<[amount: bigint, feeBps: number, released: bigint]> = [
    [10_000n, 10, 9_990n],
    [2_500_000n, 10, 2_497_500n],
    [1n, 10, 0n],
    [999n, 10, 998n],
    [10_000n, 0, 10_000n],
    [10n ** 24n, 9_999, 10n ** 20n],
  ];
  for (const [amount, feeBps, released] of rows)
    assert.equal(bridgeOutputAmount(amount, feeBps), released, `${amount} at ${feeBps} bps`);
});

test("a fee outside 0 to 9999 basis points is refused", () => {
  for (const feeBps of [-1, 10_000, 1.5]) assert.throws(() => bridgeOutputAmount(1000n, feeBps));
});
