import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  applyUpstreamReport,
  markUpstreamRefreshFailed,
  type UpstreamReport,
  type UpstreamReportOutcome,
  type UpstreamView,
} from "../src/status-rules/index.js";

const t0 = new Date("2026-01-01T00:00:00.000Z");
const fillHash = "0xaaaa000000000000000000000000000000000000000000000000000000000001";

function at(step: number): Date {
  return new Date(t0.getTime() + step * 2000);
}

/** Feeds reports in order, each one applied; returns the last accepted view. */
function viewAfter(reports: UpstreamReport[]): UpstreamView | undefined {
  let view: UpstreamView | undefined;
  reports.forEach((report, step) => {
    const outcome = applyUpstreamReport(view, report, at(step));
    assert.equal(outcome.applied, true, `setup report ${JSON.stringify(report)} must apply`);
    view = outcome.view;
  });
  return view;
}

interface Expectation {
  applied: boolean;
  state?: string;
  history?: string[];
  rejection?: string;
  errorCode?: "EIN0007";
  rejectedUpstreamTransition?: boolean;
  upstreamStale?: boolean;
  fillTransaction?: string | undefined;
  upstreamFillReported?: boolean;
  failedAt?: string | undefined;
  failureReason?: string;
}

interface Row {
  rule: string;
  guarantee: string;
  before: UpstreamReport[];
  report: UpstreamReport;
  expect: Expectation;
}

function check(outcome: UpstreamReportOutcome, expect: Expectation): void {
  assert.equal(outcome.applied, expect.applied);
  if (!outcome.applied) assert.equal(outcome.rejection, expect.rejection);
  if (expect.errorCode) {
    assert.equal(outcome.view, undefined);
    assert.equal("errorCode" in outcome ? outcome.errorCode : undefined, expect.errorCode);
    return;
  }
  const view = outcome.view;
  assert.ok(view, "a view is kept whenever an earlier state exists");
  assert.equal(view.stateSource, "upstream-advisory");
  assert.equal(view.finalityVerified, false);
  if (expect.state) assert.equal(view.state, expect.state);
  if (expect.history)
    assert.deepEqual(
      view.history.map((entry) => entry.state),
      expect.history,
    );
  for (const key of [
    "rejectedUpstreamTransition",
    "upstreamStale",
    "upstreamFillReported",
    "failedAt",
    "failureReason",
  ] as const) {
    if (key in expect) assert.equal(view[key], expect[key], key);
  }
  if ("fillTransaction" in expect) assert.equal(view.fillTransaction, expect.fillTransaction);
}

// One row per rule of the spec's "Upstream view states" table, then the decisions that table leaves open.
const specRows: Row[] = [
  {
    rule: "Order",
    guarantee: "a forward report moves the state and is recorded in history",
    before: [{ status: "created" }],
    report: { status: "pending" },
    expect: {
      applied: true,
      state: "pending",
      history: ["created", "pending"],
      rejectedUpstreamTransition: false,
    },
  },
  {
    rule: "Skipping",
    guarantee: "states passed between two reads (settling, settled) are skipped and absent from history",
    before: [{ status: "created" }, { status: "executed", fillTransaction: fillHash }],
    report: { status: "finalized" },
    expect: { applied: true, state: "finalized", history: ["created", "executed", "finalized"] },
  },
  {
    rule: "Failure",
    guarantee: "failed is reachable from a non-terminal state and carries failedAt and upstream's text",
    before: [{ status: "created" }, { status: "executing" }],
    report: { status: { failed: ["Fill", "execution reverted: FillDeadline()"] } },
    expect: {
      applied: true,
      state: "failed",
      failedAt: "Fill",
      failureReason: "execution reverted: FillDeadline()",
      history: ["created", "executing", "failed"],
    },
  },
  {
    rule: "Terminal",
    guarantee: "settled is not terminal: it can still become refunded",
    before: [{ status: "created" }, { status: "settled", fillTransaction: fillHash }],
    report: { status: "refunded" },
    expect: { applied: true, state: "refunded", history: ["created", "settled", "refunded"] },
  },
  {
    rule: "Stall",
    guarantee: "a repeated executed without fillTransaction stays executed with upstreamStale false",
    before: [{ status: "created" }, { status: "executed" }],
    report: { status: "executed", fillTransaction: null },
    expect: {
      applied: true,
      state: "executed",
      upstreamStale: false,
      upstreamFillReported: false,
      fillTransaction: undefined,
      history: ["created", "executed"],
    },
  },
  {
    rule: "Refused report",
    guarantee:
      "a backwards report keeps the previous state and sets rejectedUpstreamTransition and upstreamStale",
    before: [{ status: "created" }, { status: "executed" }],
    report: { status: "pending" },
    expect: {
      applied: false,
      rejection: "backwards",
      state: "executed",
      history: ["created", "executed"],
      rejectedUpstreamTransition: true,
      upstreamStale: true,
    },
  },
  {
    rule: "No earlier state",
    guarantee: "a refused report with no earlier state answers EIN0007",
    before: [],
    report: { status: "postFilled" },
    expect: { applied: false, rejection: "unknown-status", errorCode: "EIN0007" },
  },
];

const decisionRows: Row[] = [
  {
    rule: "Failure",
    guarantee: "refunded is reachable from created",
    before: [{ status: "created" }],
    report: { status: "refunded" },
    expect: { applied: true, state: "refunded" },
  },
  {
    rule: "Terminal",
    guarantee: "a failure report on a finalized order is contradictory and not applied",
    before: [{ status: "created" }, { status: "finalized" }],
    report: { status: { failed: ["Claim", "late"] } },
    expect: { applied: false, rejection: "terminal-contradicted", state: "finalized", upstreamStale: true },
  },
  {
    rule: "Terminal",
    guarantee: "a forward state after finalized is backwards",
    before: [{ status: "created" }, { status: "finalized" }],
    report: { status: "settled" },
    expect: { applied: false, rejection: "backwards", state: "finalized" },
  },
  {
    rule: "Terminal",
    guarantee: "a failed order reported failed at another stage is contradictory",
    before: [{ status: "created" }, { status: { failed: ["Fill", "x"] } }],
    report: { status: { failed: ["Claim", "x"] } },
    expect: { applied: false, rejection: "terminal-contradicted", failedAt: "Fill" },
  },
  {
    rule: "Terminal",
    guarantee: "a failed order reported failed identically again is a plain repeat",
    before: [{ status: "created" }, { status: { failed: ["Fill", "x"] } }],
    report: { status: { failed: ["Fill", "x"] } },
    expect: {
      applied: true,
      state: "failed",
      history: ["created", "failed"],
      rejectedUpstreamTransition: false,
    },
  },
  {
    rule: "Refused report",
    guarantee: "a fill reference other than the recorded one is contradictory",
    before: [{ status: "created" }, { status: "executed", fillTransaction: fillHash }],
    report: { status: "settled", fillTransaction: `${fillHash.slice(0, -1)}2` },
    expect: {
      applied: false,
      rejection: "fill-reference-changed",
      state: "executed",
      fillTransaction: fillHash,
    },
  },
  {
    rule: "Refused report",
    guarantee: "a fill reference beside created or pending is contradictory",
    before: [{ status: "created" }],
    report: { status: "pending", fillTransaction: fillHash },
    expect: { applied: false, rejection: "fill-before-execution", state: "created" },
  },
  {
    rule: "Refused report",
    guarantee: "a status outside the aggregator's enum (solver-only postFilled) is unknown",
    before: [{ status: "created" }, { status: "executed" }],
    report: { status: "postFilled" },
    expect: {
      applied: false,
      rejection: "unknown-status",
      state: "executed",
      rejectedUpstreamTransition: true,
    },
  },
  {
    rule: "Refused report",
    guarantee: "a failure arm with a stage outside Prepare/Fill/PostFill/PreClaim/Claim is unknown",
    before: [{ status: "created" }],
    report: { status: { failed: ["Approval", "no allowance"] } },
    expect: { applied: false, rejection: "unknown-status", state: "created" },
  },
  {
    rule: "Refused report",
    guarantee: "status strings are case-sensitive",
    before: [{ status: "created" }],
    report: { status: "Executed" },
    expect: { applied: false, rejection: "unknown-status", state: "created" },
  },
  {
    rule: "Refused report",
    guarantee: "a fill reference that is neither a hash string nor an object with a hash is unknown",
    before: [{ status: "created" }],
    report: { status: "executed", fillTransaction: { status: "executed" } },
    expect: { applied: false, rejection: "unknown-fill-reference", state: "created" },
  },
  {
    rule: "upstreamFillReported",
    guarantee: "the solver's {hash,status,timestamp} fill object records its hash as the fill reference",
    before: [{ status: "created" }],
    report: { status: "executing", fillTransaction: { hash: fillHash, status: "pending", timestamp: 1 } },
    expect: { applied: true, state: "executing", fillTransaction: fillHash, upstreamFillReported: true },
  },
  {
    rule: "upstreamFillReported",
    guarantee: "a later report without a fill reference keeps the recorded one",
    before: [{ status: "created" }, { status: "executed", fillTransaction: fillHash }],
    report: { status: "settled", fillTransaction: null },
    expect: { applied: true, state: "settled", fillTransaction: fillHash, upstreamFillReported: true },
  },
  {
    rule: "Failure",
    guarantee: "a plain failed string (oif-specs form) is accepted with no failedAt",
    before: [{ status: "created" }],
    report: { status: "failed" },
    expect: { applied: true, state: "failed", failedAt: undefined },
  },
];

describe("upstream view states (spec table)", () => {
  for (const row of specRows) {
    test(`${row.rule}: ${row.guarantee}`, () => {
      const previous = viewAfter(row.before);
      check(applyUpstreamReport(previous, row.report, at(row.before.length)), row.expect);
    });
  }
});

describe("upstream view states (decisions)", () => {
  for (const row of decisionRows) {
    test(`${row.rule}: ${row.guarantee}`, () => {
      const previous = viewAfter(row.before);
      check(applyUpstreamReport(previous, row.report, at(row.before.length)), row.expect);
    });
  }

  test("a rejected report leaves history and state unchanged, and the next good report clears both flags", () => {
    const start = viewAfter([{ status: "created" }, { status: "executed" }]);
    const rejected = applyUpstreamReport(start, { status: "created" }, at(2));
    assert.equal(rejected.applied, false);
    assert.ok(rejected.view);
    assert.deepEqual(rejected.view.history, start?.history);
    const next = applyUpstreamReport(rejected.view, { status: "executed" }, at(3));
    assert.equal(next.applied, true);
    assert.equal(next.applied && next.changed, true);
    assert.equal(next.view?.rejectedUpstreamTransition, false);
    assert.equal(next.view?.upstreamStale, false);
  });

  test("history entries carry the read's time as RFC 3339 with milliseconds", () => {
    const view = viewAfter([{ status: "created" }, { status: "executing" }]);
    assert.deepEqual(view?.history, [
      { state: "created", at: "2026-01-01T00:00:00.000Z" },
      { state: "executing", at: "2026-01-01T00:00:02.000Z" },
    ]);
  });

  test("a failed refresh serves the last good state with upstreamStale true", () => {
    const view = viewAfter([{ status: "created" }, { status: "executed" }]);
    assert.ok(view);
    const stale = markUpstreamRefreshFailed(view);
    assert.equal(stale.state, "executed");
    assert.equal(stale.upstreamStale, true);
    assert.equal(stale.rejectedUpstreamTransition, false);
  });
});
