import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { UpstreamOrderStatus } from "@hub/contract";
import { createMemoryCounters } from "@hub/counters";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import type { HubApp, HubConfigInput } from "../src/index.js";
import { type ScriptedAggregator, startScriptedAggregator } from "./fixtures/scripted-aggregator.js";
import { assertRefusal, call, createTestHubApp, envelopeOf, manualClock } from "./hub-fixture.js";
import { hubOrderIdOf, type SeededOrder, seedAckedOrders } from "./store/order-status-seed.js";
import { markSubmissionUnknown } from "./store/submission-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const ORG = "org_status";
const ASSET = "eip155:31337/erc20:0x00000000000000000000000000000000000000aa";

let db: TestDatabase;
let aggregator: ScriptedAggregator;
const clock = manualClock();
const hubs: HubApp[] = [];
let hub: HubApp;
let quoteCounter = 0;

function startHub(config: Partial<HubConfigInput> = {}): HubApp {
  const started = createTestHubApp({
    config,
    counters: createMemoryCounters({}, { clock }),
    clock,
    sql: db.sql,
    providers: [
      {
        id: "scripted",
        kind: "oif-aggregator",
        dialect: "oif-aggregator",
        baseUrl: aggregator.url,
        timeoutMs: 2000,
      },
    ],
  });
  hubs.push(started);
  return started;
}

async function seed(subject: string, count = 1, at = new Date(clock.now())): Promise<SeededOrder[]> {
  const orders = Array.from({ length: count }, () => ({
    quoteId: `q-status-${++quoteCounter}`,
    organization: ORG,
    subject,
    submittedAt: at,
  }));
  return seedAckedOrders(db.sql, orders, { providerId: "scripted", asset: ASSET, amount: "1000000" });
}

async function readStatus(
  target: HubApp,
  order: { hubOrderId: string },
  who: { org?: string; subject: string },
): Promise<UpstreamOrderStatus> {
  const answer = await call(target, "GET", `/v1/order/${order.hubOrderId}/status`, {
    headers: { "x-service-org": who.org ?? ORG, "x-service-subject": who.subject },
  });
  const envelope = envelopeOf(answer);
  assert.equal(envelope.success, true, answer.body.toString());
  // Cached reads answer JSON rendered once; the bytes stay those of JSON.stringify of the envelope.
  assert.equal(
    answer.body.toString(),
    JSON.stringify({ success: true, data: envelope.data, request_id: envelope.request_id }),
  );
  return envelope.data as UpstreamOrderStatus;
}

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  aggregator = await startScriptedAggregator();
  hub = startHub();
});

after(async () => {
  for (const started of hubs) await started.close();
  await aggregator.close();
  await db.dispose();
  await databases.dispose();
});

describe("GET /order/{orderId}/status", () => {
  test("the status read walks forward to finalized with history, one upstream read per 2 s, none once terminal", async () => {
    const [order] = await seed("walker");
    assert.ok(order);
    const first = await readStatus(hub, order, { subject: "walker" });
    assert.equal(first.state, "created", "right after the ack the stored first view is served");
    assert.equal(
      aggregator.reads.get(order.upstreamOrderId),
      undefined,
      "a view refreshed under 2 s ago is not re-read",
    );
    assert.equal(first.stateSource, "upstream-advisory");
    assert.equal(first.finalityVerified, false);
    assert.equal(first.onchainOrderId, order.onchainOrderId);

    aggregator.orders.set(order.upstreamOrderId, { status: "pending" });
    clock.advance(2000);
    assert.equal((await readStatus(hub, order, { subject: "walker" })).state, "pending");
    aggregator.orders.set(order.upstreamOrderId, {
      status: "executed",
      fillTransaction: `0x${"ab".repeat(32)}`,
    });
    clock.advance(1999);
    assert.equal(
      (await readStatus(hub, order, { subject: "walker" })).state,
      "pending",
      "served from the 2 s cache",
    );
    clock.advance(1);
    const executed = await readStatus(hub, order, { subject: "walker" });
    assert.equal(executed.state, "executed");
    assert.equal(executed.upstreamFillReported, true);
    assert.equal(executed.fillTransaction, `0x${"ab".repeat(32)}`);
    aggregator.orders.set(order.upstreamOrderId, {
      status: "finalized",
      fillTransaction: `0x${"ab".repeat(32)}`,
    });
    clock.advance(2000);
    const finalized = await readStatus(hub, order, { subject: "walker" });
    assert.equal(finalized.state, "finalized");
    assert.deepEqual(
      finalized.history.map((entry) => entry.state),
      ["created", "pending", "executed", "finalized"],
    );
    assert.equal(finalized.rejectedUpstreamTransition, false);
    assert.equal(finalized.upstreamStale, false);
    const readsAtFinal = aggregator.reads.get(order.upstreamOrderId);
    assert.equal(readsAtFinal, 3);
    clock.advance(10_000);
    assert.equal((await readStatus(hub, order, { subject: "walker" })).state, "finalized");
    assert.equal(
      aggregator.reads.get(order.upstreamOrderId),
      readsAtFinal,
      "a terminal state is not re-read",
    );

    const restarted = startHub();
    const afterRestart = await readStatus(restarted, order, { subject: "walker" });
    assert.deepEqual(
      afterRestart.history,
      finalized.history,
      "the accepted view is persisted with its history",
    );
  });

  test("a backwards report is not applied: the previous state is kept with rejectedUpstreamTransition and upstreamStale", async () => {
    const [order] = await seed("backwards");
    assert.ok(order);
    aggregator.orders.set(order.upstreamOrderId, { status: "executing" });
    clock.advance(2000);
    assert.equal((await readStatus(hub, order, { subject: "backwards" })).state, "executing");
    aggregator.orders.set(order.upstreamOrderId, { status: "pending" });
    clock.advance(2000);
    const refused = await readStatus(hub, order, { subject: "backwards" });
    assert.equal(refused.state, "executing");
    assert.equal(refused.rejectedUpstreamTransition, true);
    assert.equal(refused.upstreamStale, true);
    aggregator.orders.set(order.upstreamOrderId, { status: "executed" });
    clock.advance(2000);
    const recovered = await readStatus(hub, order, { subject: "backwards" });
    assert.equal(recovered.state, "executed");
    assert.equal(recovered.rejectedUpstreamTransition, false);
    assert.equal(recovered.upstreamStale, false);
  });

  test("a failed refresh serves the last good state with upstreamStale true", async () => {
    const [order] = await seed("down");
    assert.ok(order);
    aggregator.orders.set(order.upstreamOrderId, {
      status: { failed: ["Fill", "solver ran out of gas"] },
    });
    clock.advance(2000);
    const failed = await readStatus(hub, order, { subject: "down" });
    assert.equal(failed.state, "failed");
    assert.equal(failed.failedAt, "Fill");
    assert.equal(failed.failureReason, "solver ran out of gas");

    const [other] = await seed("down");
    assert.ok(other);
    aggregator.orders.set(other.upstreamOrderId, { status: "executing" });
    clock.advance(2000);
    const good = await readStatus(hub, other, { subject: "down" });
    aggregator.down = true;
    try {
      clock.advance(2000);
      const stale = await readStatus(hub, other, { subject: "down" });
      assert.equal(stale.state, "executing");
      assert.equal(stale.upstreamStale, true);
      assert.equal(stale.rejectedUpstreamTransition, false);
      assert.equal(stale.updatedAt, good.updatedAt, "updatedAt stays the last good read");
    } finally {
      aggregator.down = false;
    }
    clock.advance(2000);
    assert.equal((await readStatus(hub, other, { subject: "down" })).upstreamStale, false);
  });

  test("10 concurrent pollers of one order cause at most one upstream read per 2 s", async () => {
    const [order] = await seed("pollers");
    assert.ok(order);
    aggregator.orders.set(order.upstreamOrderId, { status: "executing" });
    for (let round = 0; round < 5; round += 1) {
      clock.advance(2000);
      const statuses: UpstreamOrderStatus[] = await Promise.all(
        Array.from({ length: 10 }, () => readStatus(hub, order, { subject: "pollers" })),
      );
      for (const status of statuses) assert.equal(status.state, "executing");
    }
    assert.equal(aggregator.reads.get(order.upstreamOrderId), 5);

    const second = startHub();
    clock.advance(2000);
    await Promise.all([
      readStatus(hub, order, { subject: "pollers" }),
      readStatus(second, order, { subject: "pollers" }),
    ]);
    await readStatus(second, order, { subject: "pollers" });
    assert.ok(
      (aggregator.reads.get(order.upstreamOrderId) ?? 0) <= 7,
      "a second replica sees the persisted refresh",
    );
  });

  test("an order of another subject or organization, a reservation not acked and an unknown id read EIN0009", async () => {
    const [order] = await seed("owner");
    assert.ok(order);
    const read = (org: string, subject: string, id = order.hubOrderId) =>
      call(hub, "GET", `/v1/order/${id}/status`, {
        headers: { "x-service-org": org, "x-service-subject": subject },
      });
    assertRefusal(await read(ORG, "intruder"), "EIN0009");
    assertRefusal(await read("org_other", "owner"), "EIN0009");
    await readStatus(hub, order, { subject: "owner" });
    assertRefusal(await read(ORG, "intruder"), "EIN0009");
    assertRefusal(await read(ORG, "owner", hubOrderIdOf("q-never-quoted")), "EIN0009");
    const [unacked] = await seed("owner");
    assert.ok(unacked);
    await markSubmissionUnknown(db.sql, unacked.hubOrderId);
    assertRefusal(await read(ORG, "owner", unacked.hubOrderId), "EIN0009");
  });

  test("a status read of another organization's or subject's order is refused before any upstream read, with the answer of an unknown id", async () => {
    const [order] = await seed("guarded");
    assert.ok(order);
    aggregator.orders.set(order.upstreamOrderId, { status: "executing" });
    clock.advance(2000);
    const read = (org: string, subject: string, id = order.hubOrderId) =>
      call(hub, "GET", `/v1/order/${id}/status`, {
        headers: { "x-service-org": org, "x-service-subject": subject },
      });
    const withoutRequestId = (answer: Awaited<ReturnType<typeof read>>) => {
      const requestId = answer.headers["x-request-id"];
      assert.ok(requestId);
      return {
        statusCode: answer.statusCode,
        contentType: answer.headers["content-type"],
        body: answer.body.toString("utf8").replaceAll(requestId, "<request-id>"),
      };
    };
    const unknown = await read("org_other", "guarded", hubOrderIdOf("q-never-quoted-guarded"));
    assertRefusal(unknown, "EIN0009");
    for (const [org, subject] of [
      ["org_other", "guarded"],
      [ORG, "intruder"],
    ] as const) {
      const foreign = await read(org, subject);
      assertRefusal(foreign, "EIN0009");
      assert.deepEqual(withoutRequestId(foreign), withoutRequestId(unknown), "the answer of an unknown id");
    }
    assert.equal(
      aggregator.reads.get(order.upstreamOrderId),
      undefined,
      "no upstream read for a foreign caller",
    );
    assert.equal((await readStatus(hub, order, { subject: "guarded" })).state, "executing");
    assert.equal(aggregator.reads.get(order.upstreamOrderId), 1, "the owner's read goes upstream");
  });

  test("a full status projection answers EIN0081 to a read that would add an order", async () => {
    const small = startHub({ statusProjectionCapacity: 2 });
    const orders = await seed("crowd", 3);
    await readStatus(small, orders[0] as SeededOrder, { subject: "crowd" });
    await readStatus(small, orders[1] as SeededOrder, { subject: "crowd" });
    const refused = await call(small, "GET", `/v1/order/${orders[2]?.hubOrderId}/status`, {
      headers: { "x-service-org": ORG, "x-service-subject": "crowd" },
    });
    assertRefusal(refused, "EIN0081");
    assert.equal((await readStatus(small, orders[0] as SeededOrder, { subject: "crowd" })).state, "created");
  });
});
