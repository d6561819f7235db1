import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { after, describe, test } from "node:test";
import type { AdjustableClock } from "@hub/clock";
import { createMemoryCounters } from "@hub/counters";
import { startScriptedAggregator } from "@hub/hub-app/test-fixtures/scripted-aggregator";
import { createTestHubApp, quoteBody } from "@hub/hub-app/test-harness";
import { seedAckedOrders } from "@hub/hub-app/test-store/order-status-seed";
import { createTestDatabases } from "@hub/store";
import { pino } from "pino";
import {
  createHttpHubTransport,
  createUsageTally,
  type GatewayConfigInput,
  gatewayConfigSchema,
} from "../src/index.js";
import { callGateway } from "./fixtures/call-gateway.js";
import { HUB_SECRET, manualClock, startGateway } from "./fixtures/start-gateway.js";

const databases = createTestDatabases({ databaseUrl: undefined });
after(() => databases.dispose());

const PAGE = "https://wallet.example";
const ORG = "org_frontend";
const VISITORS = 20;
/** Visitors 0..3 quote in turn, one quote a second in all. */
const QUOTERS = 4;
/** Reads one flooding address sends each second, from an address no visitor uses. */
const FLOOD_PER_SECOND = 20;
const SECONDS = 12;

/** The defaults in reads, scaled by 1/10 with the visitors: a tenth of the reads, the same quote capacity. */
function scaledDefaults(): Partial<GatewayConfigInput> {
  const defaults = gatewayConfigSchema.parse({ hubCredential: HUB_SECRET });
  return {
    projectQuoteCost: defaults.projectQuoteCost / 10,
    visitorBucket: {
      ratePerSecond: defaults.visitorBucket.ratePerSecond / 10,
      burst: defaults.visitorBucket.burst / 10,
    },
  };
}

/** The sizes before reads had a cost of their own: 2.5/s, burst 10 for the project, 10/s, burst 20 a visitor. */
const OLD_SIZES: Partial<GatewayConfigInput> = {
  projectQuoteCost: 1,
  visitorBucket: { ratePerSecond: 10, burst: 20 },
};

type Outcome = "admitted" | "EPX0080" | "EPX0082";
type Tally = Record<Outcome, number>;
const tally = (): Tally => ({ admitted: 0, EPX0080: 0, EPX0082: 0 });

/**
 * A web frontend on the project id, over HTTP, the gateway in front of a real hub (HTTP transport) on
 * one manual clock: each visitor polls its own order's status every 2 s (half of them each second), a
 * quote a second, and one address floods reads. Returns what each kind of call got.
 */
async function runFrontend(config: Partial<GatewayConfigInput>) {
  const clock: AdjustableClock = manualClock(Date.now());
  const db = await databases.open("pglite");
  const aggregator = await startScriptedAggregator();
  const hub = createTestHubApp({
    config: { gatewayCredential: HUB_SECRET },
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
  await hub.app.listen({ port: 0, host: "127.0.0.1" });
  const hubUrl = `http://127.0.0.1:${(hub.app.server.address() as AddressInfo).port}`;
  const rows: { credentialKind: string; routeKind: string; code: string; count: number }[] = [];
  const usage = createUsageTally(
    { flushMs: 3_600_000 },
    {
      store: { addUsage: async (written) => void rows.push(...written) },
      logger: pino({ level: "silent" }),
      clock,
    },
  );
  const gw = await startGateway({
    clock,
    usage,
    transport: () => createHttpHubTransport({ url: hubUrl, connections: 8 }),
    config: { ...config, trustedProxies: ["127.0.0.1/32"] },
  });
  try {
    const projectId = gw.access.addProject(ORG, [PAGE]);
    const orders = await seedAckedOrders(
      db.sql,
      Array.from({ length: VISITORS }, (_, i) => ({
        quoteId: `q-frontend-${i}`,
        organization: ORG,
        subject: `visitor-${i}`,
        submittedAt: new Date(clock.now() - 3000),
      })),
      {
        providerId: "scripted",
        asset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
        amount: "1",
      },
    );
    for (const order of orders) aggregator.orders.set(order.upstreamOrderId, { status: "finalized" });
    const page = (visitor: number) => ({
      "x-project-id": projectId,
      origin: PAGE,
      "x-service-subject": `visitor-${visitor}`,
      "x-forwarded-for": `198.51.100.${visitor + 1}`,
    });
    const outcome = (answer: { status: number; json: { errors?: { error_code: string }[] } }): Outcome => {
      const code = answer.json?.errors?.[0]?.error_code;
      return code === "EPX0080" || code === "EPX0082" ? code : "admitted";
    };
    const seen = { reads: tally(), quotes: tally(), flood: tally() };
    const readsAnswered: number[] = [];

    for (let second = 0; second < SECONDS; second++) {
      const calls: Promise<void>[] = [];
      for (let visitor = 0; visitor < VISITORS; visitor++) {
        if ((visitor + second) % 2 !== 0) continue;
        const order = orders[visitor] as (typeof orders)[number];
        calls.push(
          callGateway(gw.origin, "GET", `/v1/order/${order.hubOrderId}/status`, {
            headers: page(visitor),
          }).then((answer) => {
            const got = outcome(answer);
            seen.reads[got] += 1;
            if (got === "admitted") readsAnswered.push(answer.status);
          }),
        );
      }
      calls.push(
        callGateway(gw.origin, "POST", "/v1/quote", {
          headers: { ...page(second % QUOTERS), "content-type": "application/json" },
          body: JSON.stringify(quoteBody()),
        }).then((answer) => {
          seen.quotes[outcome(answer)] += 1;
        }),
      );
      for (let i = 0; i < FLOOD_PER_SECOND; i++) {
        calls.push(
          callGateway(gw.origin, "GET", `/v1/order/${orders[0]?.hubOrderId}/status`, {
            headers: { ...page(0), "x-forwarded-for": "203.0.113.66" },
          }).then((answer) => {
            seen.flood[outcome(answer)] += 1;
          }),
        );
      }
      await Promise.all(calls);
      clock.advance(1_000);
    }
    await usage.flush();
    return { ...seen, readsAnswered, rows };
  } finally {
    await gw.close();
    await usage.close();
    await hub.close();
    await aggregator.close();
    await db.dispose();
  }
}

describe("a web frontend on a project id: 20 visitors polling their orders every 2 s, quotes, one flooding address", () => {
  test("with the default sizes and costs scaled by 1/10 no visitor is refused EPX0080, and the flooding address is held by its own bucket (EPX0082)", async (t) => {
    const run = await runFrontend(scaledDefaults());
    t.diagnostic(JSON.stringify({ reads: run.reads, quotes: run.quotes, flood: run.flood }));
    const reads = (VISITORS / 2) * SECONDS;
    assert.deepEqual(run.reads, { admitted: reads, EPX0080: 0, EPX0082: 0 });
    assert.deepEqual(run.quotes, { admitted: SECONDS, EPX0080: 0, EPX0082: 0 });
    assert.ok(
      run.readsAnswered.every((status) => status === 200),
      "every admitted read is the order's status",
    );
    // The flood gets its bucket's burst (48) and refill (1.5/s), never the project's pool.
    assert.equal(run.flood.EPX0080, 0);
    assert.ok(run.flood.admitted <= 48 + 1.5 * SECONDS, `flood admitted ${run.flood.admitted}`);
    assert.equal(run.flood.admitted + run.flood.EPX0082, FLOOD_PER_SECOND * SECONDS);
    // The refusals are in the usage rows, as reads of the project id. The rows are per minute, and the
    // twelve seconds on a clock started at Date.now() may straddle a minute: the rows sum to the count.
    const refusedReads = run.rows.filter(
      (row) => row.credentialKind === "project_id" && row.routeKind === "read" && row.code === "EPX0082",
    );
    assert.ok(refusedReads.length >= 1 && refusedReads.length <= 2, JSON.stringify(refusedReads));
    assert.equal(
      refusedReads.reduce((sum, row) => sum + row.count, 0),
      run.flood.EPX0082,
    );
  });

  test("with the old sizes and costs (every call 1 of 2.5/s, burst 10) the same frontend's visitors are refused EPX0080", async (t) => {
    const run = await runFrontend(OLD_SIZES);
    t.diagnostic(JSON.stringify({ reads: run.reads, quotes: run.quotes, flood: run.flood }));
    assert.ok(run.reads.EPX0080 > 0, `visitors' reads refused EPX0080: ${run.reads.EPX0080}`);
    assert.ok(run.reads.EPX0080 > run.reads.admitted, JSON.stringify(run.reads));
    const poolRefusals = run.rows
      .filter((row) => row.credentialKind === "project_id" && row.code === "EPX0080")
      .reduce((sum, row) => sum + row.count, 0);
    assert.equal(poolRefusals, run.reads.EPX0080 + run.quotes.EPX0080 + run.flood.EPX0080);
  });
});
