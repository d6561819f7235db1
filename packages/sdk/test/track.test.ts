import assert from "node:assert/strict";
import { test } from "node:test";
import { createHubClient, type SubmittedOrder, type TrackEvent } from "../src/index.js";
import { type Answer, ok, type Received, scriptedServer } from "./scripted-server.js";

const KEY = `svc_sk_${"c".repeat(43)}`;
const ONCHAIN = `0x${"77".repeat(32)}`;
const openFor: SubmittedOrder = {
  kind: "openfor",
  lane: "aggregator-gasless",
  quoteId: "q",
  hubOrderId: "h".repeat(64),
  onchainOrderId: ONCHAIN,
  ack: {} as never,
  sent: [],
};
const upstream = (state: string) => () => ok({ state, history: [], stateSource: "upstream-advisory" });
const fill =
  (status: string | null, settled = false) =>
  () =>
    ok({
      orderId: ONCHAIN,
      filled: settled || status === "FILLED",
      settled,
      status,
      fills: [],
      watermarks: [],
    });

function summary(event: TrackEvent): string {
  if (event.view === "upstream" || event.view === "hub") return `${event.view}:${event.status.state}`;
  if (event.view === "fill") return `fill:${event.fill.status}`;
  return "handoff";
}

async function run(
  script: ((r: Received) => Answer)[],
  order: SubmittedOrder,
  options: { handOffAfterMs?: number } = {},
) {
  const server = await scriptedServer(script);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const events: string[] = [];
    for await (const event of client.track(order, { intervalMs: 20, ...options }))
      events.push(summary(event));
    return {
      events,
      calls: server.calls(),
      remaining: server.remaining(),
      at: server.received.map((r) => r.at),
    };
  } finally {
    await server.close();
  }
}

test("openFor: each new upstream state once; from executed on the fill view too, and tracking ends when it reads settled", async () => {
  const { events, calls, remaining } = await run(
    [
      upstream("created"),
      upstream("created"),
      upstream("pending"),
      upstream("executed"),
      fill(null),
      upstream("executed"),
      fill("FILLED"),
      upstream("executed"),
      fill("SETTLED", true),
    ],
    openFor,
  );
  assert.deepEqual(events, [
    "upstream:created",
    "upstream:pending",
    "upstream:executed",
    "fill:null",
    "fill:FILLED",
    "fill:SETTLED",
  ]);
  assert.equal(calls.at(-1), `GET /onchain/${ONCHAIN}/fill`);
  assert.equal(remaining, 0, "stopped right at settled");
});

test("openFor: the upstream stop set ends tracking (failed: after one read of the chain's facts)", async () => {
  const { events, remaining } = await run([upstream("pending"), upstream("failed"), fill(null)], openFor);
  assert.deepEqual(events, ["upstream:pending", "upstream:failed", "fill:null"]);
  assert.equal(remaining, 0);
  const finalized = await run([upstream("finalized"), fill("SETTLED", true)], openFor);
  assert.deepEqual(
    finalized.events,
    ["upstream:finalized", "fill:SETTLED"],
    "finalized still ends on the fill view's money facts",
  );
});

test("openFor: without a new upstream state for handOffAfterMs, hand off to the fill view and stop reading the upstream", async () => {
  // The upstream stays executing for good; the fill view moves on. Each answer follows the path asked.
  const fills = [fill("OPEN"), fill("OPEN"), fill("SETTLED", true)];
  const byPath = (r: { path: string }) =>
    r.path.endsWith("/fill") ? fills.shift()!() : upstream("executing")();
  const { events, calls, remaining } = await run(
    Array.from({ length: 40 }, () => byPath),
    openFor,
    {
      handOffAfterMs: 150,
    },
  );
  assert.deepEqual(events.slice(0, 2), ["upstream:executing", "handoff"]);
  assert.deepEqual(events.slice(2), ["fill:OPEN", "fill:SETTLED"]);
  const firstFill = calls.findIndex((c) => c.includes("/fill"));
  assert.ok(
    calls.slice(firstFill).every((c) => c.includes("/fill")),
    "after the hand-off only the fill view is read",
  );
  assert.ok(remaining > 0);
});

test("open flow: GET /status until final, then the fill view by depositId until settled; reads are spaced by the interval", async () => {
  const depositId = `0x${"44".repeat(32)}`;
  const order: SubmittedOrder = {
    kind: "open-flow",
    lane: "open-flow",
    quoteId: "q",
    orderId: "o1",
    ack: {} as never,
    sent: [],
  };
  const hub =
    (state: string, final = false) =>
    () =>
      ok({ state, final, ...(final ? { depositId } : {}) });
  const { events, calls, at } = await run(
    [hub("registered"), hub("deposited"), hub("deposited"), hub("released", true), fill("SETTLED", true)],
    order,
  );
  assert.deepEqual(events, ["hub:registered", "hub:deposited", "hub:released", "fill:SETTLED"]);
  assert.deepEqual(calls.slice(0, 4), [
    "GET /status/o1",
    "GET /status/o1",
    "GET /status/o1",
    "GET /status/o1",
  ]);
  assert.equal(calls[4], `GET /onchain/${depositId}/fill`);
  for (let i = 1; i < 4; i++) assert.ok(at[i]! - at[i - 1]! >= 20, "each read waits the interval");
});

test("the default cadence is the spec's 2-3 s and the hand-off a few minutes", async () => {
  const { DEFAULT_TRACK } = await import("../src/index.js");
  assert.ok(DEFAULT_TRACK.intervalMs >= 2_000 && DEFAULT_TRACK.intervalMs <= 3_000);
  assert.ok(DEFAULT_TRACK.handOffAfterMs >= 120_000 && DEFAULT_TRACK.handOffAfterMs <= 600_000);
});
