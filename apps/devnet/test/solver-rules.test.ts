import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { OrderStatus } from "../src/aggregator/oif-order.js";
import type { SolverFaultKnobs } from "../src/faults/fault-knobs.js";
import { escrowOpenForSignature } from "../src/solver/escrow-open-for-signature.js";
import { quoteAmounts } from "../src/solver/quote-amounts.js";
import { reportedStatus } from "../src/solver/reported-status.js";

const sig65 = `0x${"ab".repeat(65)}`;

describe("openFor signature bytes", () => {
  const rows: [string, string, "oif-escrow-v0" | "oif-3009-v0", string | undefined][] = [
    ["65 bytes on Permit2 get the 0x00 scheme byte", sig65, "oif-escrow-v0", `0x00${"ab".repeat(65)}`],
    ["65 bytes on EIP-3009 get the 0x01 scheme byte", sig65, "oif-3009-v0", `0x01${"ab".repeat(65)}`],
    [
      "66 bytes with the Permit2 scheme byte pass unchanged",
      `0x00${"ab".repeat(65)}`,
      "oif-escrow-v0",
      `0x00${"ab".repeat(65)}`,
    ],
    [
      "66 bytes with the EIP-3009 scheme byte pass unchanged",
      `0x01${"ab".repeat(65)}`,
      "oif-3009-v0",
      `0x01${"ab".repeat(65)}`,
    ],
    [
      "a missing 0x prefix and upper case are accepted",
      "AB".repeat(65),
      "oif-escrow-v0",
      `0x00${"ab".repeat(65)}`,
    ],
    [
      "66 bytes with the other lane's scheme byte are refused",
      `0x01${"ab".repeat(65)}`,
      "oif-escrow-v0",
      undefined,
    ],
    ["64 bytes are refused", `0x${"ab".repeat(64)}`, "oif-escrow-v0", undefined],
    ["non-hex is refused", `0x${"zz".repeat(65)}`, "oif-3009-v0", undefined],
  ];
  for (const [name, input, type, expected] of rows)
    test(name, () => {
      assert.equal(escrowOpenForSignature(input, type), expected);
    });
});

describe("solver price", () => {
  test("exact input: the output is the input less the spread, rounded down", () => {
    assert.deepEqual(quoteAmounts(30, { swapType: "exact-input", amountIn: 1_000_000n }), {
      amountIn: 1_000_000n,
      amountOut: 997_000n,
    });
    assert.deepEqual(quoteAmounts(30, { swapType: "exact-input", amountIn: 999n }), {
      amountIn: 999n,
      amountOut: 996n,
    });
  });

  test("exact output: the input is rounded up so the spread is never undercut", () => {
    const { amountIn } = quoteAmounts(30, { swapType: "exact-output", amountOut: 996n });
    assert.equal(amountIn, 999n);
    assert.ok((amountIn * 9970n) / 10_000n >= 996n);
  });

  test("a spread outside 0..9999 bps is a configuration error", () => {
    assert.throws(() => quoteAmounts(10_000, { swapType: "exact-input", amountIn: 1n }));
    assert.throws(() => quoteAmounts(-1, { swapType: "exact-input", amountIn: 1n }));
  });
});

describe("reported status under the knobs", () => {
  const rows: [string, OrderStatus, SolverFaultKnobs, unknown, boolean, boolean][] = [
    ["no knob reports the real state", "settling", {}, "settling", false, false],
    [
      "stall caps finalized at executed and hides the fill",
      "finalized",
      { stallAfterExecuted: true },
      "executed",
      true,
      false,
    ],
    [
      "stall leaves states up to executed alone",
      "executing",
      { stallAfterExecuted: true },
      "executing",
      true,
      false,
    ],
    [
      "stall does not hide a failure",
      { failed: ["Claim", "x"] },
      { stallAfterExecuted: true },
      { failed: ["Claim", "x"] },
      true,
      false,
    ],
    ["backwards reports the state before", "settled", { reportOnce: "backwards" }, "settling", false, true],
    [
      "backwards is held back while the order is created",
      "created",
      { reportOnce: "backwards" },
      "created",
      false,
      false,
    ],
    [
      "backwards under stall steps back from the reported executed",
      "finalized",
      { stallAfterExecuted: true, reportOnce: "backwards" },
      "executing",
      true,
      true,
    ],
    [
      "unknown reports a state outside the enum",
      "executing",
      { reportOnce: "unknown" },
      "postFilled",
      false,
      true,
    ],
  ];
  for (const [name, status, knobs, expected, hideFill, took] of rows)
    test(name, () => {
      assert.deepEqual(reportedStatus(status, knobs), { status: expected, hideFill, tookReportOnce: took });
    });
});
