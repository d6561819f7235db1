import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  type ChainFacts,
  type ChainStatus,
  type ChainTrigger,
  deriveChainView,
  type MandateOutputRecord,
  nextChainStatus,
  type OutputFilledFact,
  type EscrowDepositFact,
} from "../src/status-rules/index.js";

interface MoveRow {
  line: string;
  from: ChainStatus | undefined;
  trigger: ChainTrigger;
  to: ChainStatus | undefined;
}

// One row per line of the spec's chain status table.
const specMoves: MoveRow[] = [
  {
    line: "(no chain object) + escrow Open observed → OPEN",
    from: undefined,
    trigger: { kind: "open-observed", outputsFilled: false },
    to: "OPEN",
  },
  {
    line: "(no chain object) + a fill observed before the Open → AWAITING_OPEN",
    from: undefined,
    trigger: { kind: "fill-observed", outputsFilled: false },
    to: "AWAITING_OPEN",
  },
  {
    line: "OPEN + destination fill observed → FILLED",
    from: "OPEN",
    trigger: { kind: "fill-observed", outputsFilled: true },
    to: "FILLED",
  },
  {
    line: "FILLED + settle observed (Finalised) → SETTLED",
    from: "FILLED",
    trigger: { kind: "settle-observed" },
    to: "SETTLED",
  },
  {
    line: "EXPIRED + refund observed → REFUNDED",
    from: "EXPIRED",
    trigger: { kind: "refund-observed" },
    to: "REFUNDED",
  },
  {
    line: "any + chain facts show refund → REFUNDED",
    from: "OPEN",
    trigger: { kind: "refund-observed" },
    to: "REFUNDED",
  },
];

// The moves the spec leaves open ("other moves: not shown"), as decided in docs/order-states.md.
const decidedMoves: MoveRow[] = [
  {
    line: "OPEN + fill window closed with an output unfilled → EXPIRED",
    from: "OPEN",
    trigger: { kind: "fill-window-closed" },
    to: "EXPIRED",
  },
  {
    line: "OPEN + a fill that leaves an output unfilled stays OPEN",
    from: "OPEN",
    trigger: { kind: "fill-observed", outputsFilled: false },
    to: "OPEN",
  },
  {
    line: "AWAITING_OPEN + Open whose outputs the earlier fills complete → FILLED",
    from: "AWAITING_OPEN",
    trigger: { kind: "open-observed", outputsFilled: true },
    to: "FILLED",
  },
  {
    line: "AWAITING_OPEN + Open the earlier fills do not complete → OPEN",
    from: "AWAITING_OPEN",
    trigger: { kind: "open-observed", outputsFilled: false },
    to: "OPEN",
  },
  {
    line: "AWAITING_OPEN + another fill stays AWAITING_OPEN",
    from: "AWAITING_OPEN",
    trigger: { kind: "fill-observed", outputsFilled: false },
    to: "AWAITING_OPEN",
  },
  {
    line: "AWAITING_OPEN + fill window closed stays (order unknown)",
    from: "AWAITING_OPEN",
    trigger: { kind: "fill-window-closed" },
    to: "AWAITING_OPEN",
  },
  {
    line: "OPEN + Finalised → SETTLED (the escrow's proof outranks a missing fill in the index)",
    from: "OPEN",
    trigger: { kind: "settle-observed" },
    to: "SETTLED",
  },
  {
    line: "EXPIRED + Finalised → SETTLED (the escrow paid the solver)",
    from: "EXPIRED",
    trigger: { kind: "settle-observed" },
    to: "SETTLED",
  },
  {
    line: "AWAITING_OPEN + Finalised → SETTLED",
    from: "AWAITING_OPEN",
    trigger: { kind: "settle-observed" },
    to: "SETTLED",
  },
  {
    line: "(no chain object) + Finalised → SETTLED (Open before the indexed range)",
    from: undefined,
    trigger: { kind: "settle-observed" },
    to: "SETTLED",
  },
  {
    line: "FILLED + fill window closed stays FILLED",
    from: "FILLED",
    trigger: { kind: "fill-window-closed" },
    to: "FILLED",
  },
  {
    line: "EXPIRED + a late fill stays EXPIRED",
    from: "EXPIRED",
    trigger: { kind: "fill-observed", outputsFilled: false },
    to: "EXPIRED",
  },
  {
    line: "(no chain object) + Refunded → REFUNDED (Open before the indexed range)",
    from: undefined,
    trigger: { kind: "refund-observed" },
    to: "REFUNDED",
  },
  {
    line: "(no chain object) + fill window closed → still no chain object",
    from: undefined,
    trigger: { kind: "fill-window-closed" },
    to: undefined,
  },
  {
    line: "SETTLED is terminal: a refund does not move it",
    from: "SETTLED",
    trigger: { kind: "refund-observed" },
    to: "SETTLED",
  },
  {
    line: "REFUNDED is terminal: a Finalised does not move it",
    from: "REFUNDED",
    trigger: { kind: "settle-observed" },
    to: "REFUNDED",
  },
  {
    line: "SETTLED is terminal: an Open does not move it",
    from: "SETTLED",
    trigger: { kind: "open-observed", outputsFilled: false },
    to: "SETTLED",
  },
];

describe("chain.status moves (spec table)", () => {
  for (const row of specMoves) {
    test(row.line, () => assert.equal(nextChainStatus(row.from, row.trigger), row.to));
  }
});

describe("chain.status moves (decisions)", () => {
  for (const row of decidedMoves) {
    test(row.line, () => assert.equal(nextChainStatus(row.from, row.trigger), row.to));
  }
});

const orderId = `0x${"ab".repeat(32)}`;
const fillDeadline = 1_800_000_000;
const output: MandateOutputRecord = {
  oracle: `0x${"11".repeat(32)}`,
  settler: `0x${"22".repeat(32)}`,
  chainId: "31338",
  token: `0x${"33".repeat(32)}`,
  amount: "1000000",
  recipient: `0x${"44".repeat(32)}`,
  callbackData: "0x",
  context: "0x",
};

function ref(chainDomain: string, blockNumber: number) {
  return {
    chainDomain,
    blockNumber,
    blockHash: `0x${blockNumber.toString(16).padStart(64, "0")}`,
    blockTimestamp: new Date(blockNumber * 1000).toISOString(),
    txHash: `0x${(blockNumber + 7).toString(16).padStart(64, "0")}`,
    logIndex: 0,
  };
}

const open = {
  ...ref("eip155:31337", 10),
  settler: `0x${"55".repeat(20)}`,
  order: {
    user: `0x${"66".repeat(20)}`,
    nonce: "1",
    originChainId: "31337",
    expires: fillDeadline + 600,
    fillDeadline,
    inputOracle: `0x${"77".repeat(20)}`,
    inputs: [["123", "1000000"]] as [string, string][],
    outputs: [output],
  },
};

function fill(overrides: Partial<OutputFilledFact> = {}): OutputFilledFact {
  return {
    ...ref("eip155:31338", 20),
    settler: `0x${"22".repeat(20)}`,
    solver: `0x${"88".repeat(32)}`,
    timestamp: fillDeadline - 10,
    output,
    finalAmount: output.amount,
    ...overrides,
  };
}

function facts(parts: Partial<ChainFacts>): ChainFacts {
  return { onchainOrderId: orderId, fills: [], ...parts };
}

const before = new Map([["31338", fillDeadline - 5]]);
const after = new Map([["31338", fillDeadline + 1]]);

describe("chain view derived from indexed facts", () => {
  test("no facts: no chain object", () => {
    assert.equal(deriveChainView(facts({}), before), undefined);
  });

  test("an Open alone is OPEN with fillDeadline and expires from the order", () => {
    const view = deriveChainView(facts({ open }), before);
    assert.equal(view?.status, "OPEN");
    assert.equal(view?.fillDeadline, new Date(fillDeadline * 1000).toISOString());
    assert.equal(view?.expires, new Date((fillDeadline + 600) * 1000).toISOString());
    assert.equal(view?.filled, false);
    assert.equal(view?.settled, false);
  });

  test("a fill indexed before its Open is AWAITING_OPEN, then FILLED once the Open is indexed", () => {
    assert.equal(deriveChainView(facts({ fills: [fill()] }), before)?.status, "AWAITING_OPEN");
    const view = deriveChainView(facts({ open, fills: [fill()] }), before);
    assert.equal(view?.status, "FILLED");
    assert.equal(view?.fills[0]?.outputIndex, 0);
    assert.equal(view?.filled, true);
  });

  test("a fill whose output differs from the order's (amount) does not fill the order", () => {
    const view = deriveChainView(
      facts({ open, fills: [fill({ output: { ...output, amount: "1" } })] }),
      before,
    );
    assert.equal(view?.status, "OPEN");
    assert.equal(view?.fills[0]?.outputIndex, null);
    assert.equal(view?.filled, false);
  });

  test("a fill stamped after fillDeadline does not fill the order, and the order expires", () => {
    const late = fill({ timestamp: fillDeadline + 1 });
    assert.equal(deriveChainView(facts({ open, fills: [late] }), before)?.status, "OPEN");
    const view = deriveChainView(facts({ open, fills: [late] }), after);
    assert.equal(view?.status, "EXPIRED");
    assert.equal(view?.fills[0]?.inTime, false);
  });

  test("a fill at exactly fillDeadline counts, as finalise accepts it", () => {
    const view = deriveChainView(facts({ open, fills: [fill({ timestamp: fillDeadline })] }), after);
    assert.equal(view?.status, "FILLED");
  });

  test("an unfilled order is EXPIRED only once its destination chain is indexed past fillDeadline", () => {
    assert.equal(deriveChainView(facts({ open }), new Map([["31338", fillDeadline]]))?.status, "OPEN");
    assert.equal(deriveChainView(facts({ open }), after)?.status, "EXPIRED");
    assert.equal(deriveChainView(facts({ open }), new Map([["31337", fillDeadline + 100]]))?.status, "OPEN");
  });

  test("EXPIRED then Refunded is REFUNDED, terminal", () => {
    const view = deriveChainView(
      facts({ open, refunded: { ...ref("eip155:31337", 40), settler: open.settler } }),
      after,
    );
    assert.equal(view?.status, "REFUNDED");
    assert.equal(view?.refund?.blockNumber, 40);
  });

  test("Finalised after the fill is SETTLED, with filled and settled both true", () => {
    const finalised = {
      ...ref("eip155:31337", 30),
      settler: open.settler,
      solver: fill().solver,
      destination: fill().solver,
    };
    const view = deriveChainView(facts({ open, fills: [fill()], finalised }), after);
    assert.equal(view?.status, "SETTLED");
    assert.equal(view?.filled, true);
    assert.equal(view?.settled, true);
    assert.equal(view?.settle?.txHash, finalised.txHash);
  });
});

const solanaUser = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
const escrowDeposit: EscrowDepositFact = {
  chainDomain: "solana:ALp6S2nUSo7tbhRuHnujQR6RuA4iCc3J",
  blockNumber: 90,
  blockHash: "",
  blockTimestamp: new Date(90_000).toISOString(),
  txHash: "5".repeat(88),
  logIndex: 1,
  settler: "8qbHbw2BbbTHBW1sbeqakYXVKRQM8Ne7pLK7m6CVfeR",
  vault: "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM",
  user: solanaUser,
  mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
  amount: "5000000",
  terms: {
    user: solanaUser,
    mint: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    amount: "5000000",
    expires: fillDeadline + 600,
    fillDeadline,
    output,
  },
};

describe("chain view of a Solana escrow order (deposit, EVM fill, release, refund)", () => {
  test("a deposit matching the order's terms is the Open: OPEN, with the user as sponsor and the terms' deadlines", () => {
    const view = deriveChainView(facts({ escrowDeposit }), before);
    assert.equal(view?.status, "OPEN");
    assert.equal(view?.open?.txHash, escrowDeposit.txHash);
    assert.equal(view?.sponsor, solanaUser);
    assert.equal(view?.order, undefined, "a Solana escrow order has no StandardOrder");
    assert.equal(view?.fillDeadline, new Date(fillDeadline * 1000).toISOString());
    assert.deepEqual(view?.outputChainIds, ["31338"]);
  });

  test("a deposit of another amount than the terms is not the Open", () => {
    assert.equal(
      deriveChainView(facts({ escrowDeposit: { ...escrowDeposit, amount: "1" } }), before),
      undefined,
    );
  });

  test("a deposit the hub holds no terms for is OPEN without deadlines and never EXPIRED", () => {
    const { terms: _, ...bare } = escrowDeposit;
    const view = deriveChainView(facts({ escrowDeposit: bare }), after);
    assert.equal(view?.status, "OPEN");
    assert.equal(view?.fillDeadline, undefined);
  });

  test("the EVM fill of the terms' output in time is FILLED; unfilled past fillDeadline is EXPIRED", () => {
    assert.equal(deriveChainView(facts({ escrowDeposit, fills: [fill()] }), before)?.status, "FILLED");
    assert.equal(deriveChainView(facts({ escrowDeposit }), after)?.status, "EXPIRED");
  });

  test("the settler's release is SETTLED and its refund REFUNDED", () => {
    const payout = {
      ...escrowDeposit,
      blockNumber: 95,
      txHash: "6".repeat(88),
      settler: escrowDeposit.settler,
    };
    const released = deriveChainView(
      facts({
        escrowDeposit,
        fills: [fill()],
        finalised: { ...payout, solver: `0x${"99".repeat(32)}`, destination: "x" },
      }),
      after,
    );
    assert.deepEqual(
      [released?.status, released?.settled, released?.settle?.txHash],
      ["SETTLED", true, payout.txHash],
    );
    const refunded = deriveChainView(facts({ escrowDeposit, refunded: payout }), after);
    assert.deepEqual([refunded?.status, refunded?.refund?.txHash], ["REFUNDED", payout.txHash]);
  });
});
