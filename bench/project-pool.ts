// Project pool benchmark: a web frontend on one project id, as the gateway sees it. 200 visitors, each
// on its own loopback address (127.0.0.1 to 127.0.0.200, one keep-alive connection each), poll their
// own order's status (GET /v1/order/{orderId}/status, seeded acked orders the scripted aggregator
// reports finalized, so reads are the hub's cached projection) every 2 s; 20 of them also quote, each
// every 20 s (one quote a second in all); one more address (127.0.0.250) reads 100 times a second. Run
// for a bounded time with the gateway's default pool sizes and costs, then with the old ones (every
// call 1 of 2.5/s, burst 10; a visitor 10/s, burst 20). Reports admitted and refused calls per route
// kind and the single address's, as the clients saw them and as the usage rows counted them.
// `npm run bench -- project-pool` (PGlite; DATABASE_URL=… for PostgreSQL); Linux (binds 127.0.0.x).
import { cpus, loadavg } from "node:os";
import type { AddressInfo } from "node:net";
import { systemClock } from "@hub/clock";
import { generateProjectId, hubHeaders } from "@hub/contract";
import { createMemoryCounters } from "@hub/counters";
import {
  createCredentialResolver,
  createGatewayApp,
  createInProcessHubTransport,
  createUsageTally,
  type GatewayConfigInput,
  gatewayConfigSchema,
  projectPoolRule,
} from "@hub/gateway-app";
import { startScriptedAggregator } from "@hub/hub-app/test-fixtures/scripted-aggregator";
import { createTestHubApp, quoteBody } from "@hub/hub-app/test-harness";
import { seedAckedOrders } from "@hub/hub-app/test-store/order-status-seed";
import { createTestDatabases } from "@hub/store";
import { pino } from "pino";
import { Pool } from "undici";
import { benchCatalog } from "./gateway-catalog.js";

const HUB_SECRET = "bench-gateway-credential-0123456789abcdef";
const ORG = "org_pool_bench";
const PAGE = "https://wallet.example";

interface Settings {
  visitors: number;
  pollIntervalMs: number;
  quoters: number;
  quoteIntervalMs: number;
  floodPerSecond: number;
  durationSeconds: number;
}

type Outcome = "admitted" | "EPX0080" | "EPX0082" | "other";
const outcomes = (): Record<Outcome, number> => ({ admitted: 0, EPX0080: 0, EPX0082: 0, other: 0 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Number(
    (sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] as number).toFixed(1),
  );
}

/** A project id store that knows one project, of ORG, allowing PAGE. */
function singleProjectStore(projectId: string) {
  return {
    async findKeyByHash() {
      return undefined;
    },
    async findProjectByPublicId(id: string) {
      return id === projectId ? { projectId, orgId: ORG, allowedOrigins: [PAGE] } : undefined;
    },
    async markKeysUsed() {},
  };
}

async function runScenario(
  hub: Parameters<typeof createInProcessHubTransport>[0],
  orders: { hubOrderId: string }[],
  config: Partial<GatewayConfigInput>,
  settings: Settings,
) {
  const quiet = pino({ level: "silent" });
  const projectId = generateProjectId();
  const credentials = createCredentialResolver({}, { store: singleProjectStore(projectId), logger: quiet });
  const rows: { credentialKind: string; routeKind: string; code: string; count: number }[] = [];
  const usage = createUsageTally(
    { flushMs: 3_600_000 },
    { store: { addUsage: async (written) => void rows.push(...written) }, logger: quiet, clock: systemClock },
  );
  const transport = createInProcessHubTransport(hub);
  const gateway = createGatewayApp({
    config: { hubCredential: HUB_SECRET, ...config },
    credentials,
    counters: createMemoryCounters(),
    transport,
    // As in production: one info line per refusal, here to /dev/null.
    logger: pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false })),
    usage,
  });
  await gateway.listen({ port: 0, host: "127.0.0.1" });
  const url = `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`;
  const pools = Array.from(
    { length: settings.visitors + 1 },
    (_, i) =>
      new Pool(url, {
        connections: i === settings.visitors ? 8 : 1,
        localAddress: i === settings.visitors ? "127.0.0.250" : `127.0.0.${i + 1}`,
      }),
  );
  const seen = { reads: outcomes(), quotes: outcomes(), singleAddress: outcomes() };
  const readMs: number[] = [];
  const headersOf = (visitor: number) => ({
    "x-project-id": projectId,
    origin: PAGE,
    "x-service-subject": `visitor-${visitor}`,
  });

  async function call(
    pool: Pool,
    into: Record<Outcome, number>,
    request: { method: "GET" | "POST"; path: string; headers: Record<string, string>; body?: string },
  ): Promise<Outcome> {
    const started = performance.now();
    let outcome: Outcome = "other";
    try {
      const response = await pool.request(request);
      const text = await response.body.text();
      if (response.statusCode === 429) {
        const code = (JSON.parse(text) as { errors: { error_code: string }[] }).errors[0]?.error_code;
        outcome = code === "EPX0080" || code === "EPX0082" ? code : "other";
      } else {
        outcome = request.method === "GET" && response.statusCode !== 200 ? "other" : "admitted";
      }
    } catch {
      outcome = "other";
    }
    into[outcome] += 1;
    if (into === seen.reads && outcome === "admitted") readMs.push(performance.now() - started);
    return outcome;
  }

  const loadBefore = loadavg()[0];
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const endAt = started + settings.durationSeconds * 1000;
  const loops: Promise<void>[] = [];
  for (let visitor = 0; visitor < settings.visitors; visitor++) {
    const pool = pools[visitor] as Pool;
    const order = orders[visitor] as { hubOrderId: string };
    const offset = (visitor * settings.pollIntervalMs) / settings.visitors;
    loops.push(
      (async () => {
        for (let next = started + offset; next < endAt; next += settings.pollIntervalMs) {
          await sleep(next - performance.now());
          await call(pool, seen.reads, {
            method: "GET",
            path: `/v1/order/${order.hubOrderId}/status`,
            headers: headersOf(visitor),
          });
        }
      })(),
    );
    if (visitor < settings.quoters) {
      const quoteOffset = (visitor * settings.quoteIntervalMs) / settings.quoters;
      loops.push(
        (async () => {
          for (let next = started + quoteOffset; next < endAt; next += settings.quoteIntervalMs) {
            await sleep(next - performance.now());
            await call(pool, seen.quotes, {
              method: "POST",
              path: "/v1/quote",
              headers: { ...headersOf(visitor), "content-type": "application/json" },
              body: JSON.stringify(quoteBody()),
            });
          }
        })(),
      );
    }
  }
  const single = pools[settings.visitors] as Pool;
  const singleCalls: Promise<unknown>[] = [];
  loops.push(
    (async () => {
      const gapMs = 1000 / settings.floodPerSecond;
      for (let next = started; next < endAt; next += gapMs) {
        await sleep(next - performance.now());
        singleCalls.push(
          call(single, seen.singleAddress, {
            method: "GET",
            path: `/v1/order/${(orders[0] as { hubOrderId: string }).hubOrderId}/status`,
            headers: headersOf(0),
          }),
        );
      }
    })(),
  );
  await Promise.all(loops);
  await Promise.all(singleCalls);
  const elapsedMs = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  await usage.flush();
  await Promise.all(pools.map((pool) => pool.close()));
  await gateway.close();
  await usage.close();
  await credentials.close();
  await transport.close();

  const counted = (routeKind: string, refused?: string) =>
    rows
      .filter(
        (row) =>
          row.credentialKind === "project_id" &&
          row.routeKind === routeKind &&
          (refused === undefined ? !row.code.startsWith("EPX") : row.code === refused),
      )
      .reduce((sum, row) => sum + row.count, 0);
  readMs.sort((a, b) => a - b);
  const parsed = gatewayConfigSchema.parse({ hubCredential: HUB_SECRET, ...config });
  return {
    sizes: {
      projectPool:
        parsed.projectPool ??
        projectPoolRule(parsed.hubOrganizationBucket, parsed.projectShare, parsed.projectQuoteCost),
      visitorBucket: parsed.visitorBucket,
      quoteCost: parsed.projectQuoteCost,
      readCost: 1,
    },
    elapsedMs: Math.round(elapsedMs),
    visitors: {
      reads: seen.reads,
      quotes: seen.quotes,
      admittedReadMs: { p50: percentile(readMs, 50), p99: percentile(readMs, 99) },
    },
    singleAddress: { ...seen.singleAddress, sentPerSecond: settings.floodPerSecond },
    usageRows: {
      readsAdmitted: counted("read"),
      quotesAnswered: counted("quote"),
      EPX0080: counted("read", "EPX0080") + counted("quote", "EPX0080"),
      EPX0082: counted("read", "EPX0082") + counted("quote", "EPX0082"),
    },
    processCpuMsPerSecond: Math.round((cpu.user + cpu.system) / 1000 / (elapsedMs / 1000)),
    loadAverage1m: { before: loadBefore, after: loadavg()[0] },
  };
}

/** Runs both scenarios and returns their figures. */
export async function run(options: Partial<Settings> = {}): Promise<object> {
  const settings: Settings = {
    visitors: 200,
    pollIntervalMs: 2000,
    quoters: 20,
    quoteIntervalMs: 20_000,
    floodPerSecond: 100,
    durationSeconds: 20,
    ...options,
  };
  const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
  const db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  const aggregator = await startScriptedAggregator();
  const hub = createTestHubApp({
    config: { gatewayCredential: HUB_SECRET },
    catalog: benchCatalog(),
    logger: pino({ level: "silent" }),
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
  try {
    const orders = await seedAckedOrders(
      db.sql,
      Array.from({ length: settings.visitors }, (_, i) => ({
        quoteId: `q-pool-bench-${i}`,
        organization: ORG,
        subject: `visitor-${i}`,
        submittedAt: new Date(Date.now() - 3000),
      })),
      {
        providerId: "scripted",
        asset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
        amount: "1",
      },
    );
    for (const order of orders) aggregator.orders.set(order.upstreamOrderId, { status: "finalized" });
    // Each order read once on the hub first, so the scenarios read its cached projection.
    const warm = createInProcessHubTransport(hub);
    for (const [i, order] of orders.entries()) {
      const answer = await warm.send({
        method: "GET",
        url: `/v1/order/${order.hubOrderId}/status`,
        headers: {
          [hubHeaders.gatewayCredential]: HUB_SECRET,
          [hubHeaders.organization]: ORG,
          [hubHeaders.subject]: `visitor-${i}`,
          [hubHeaders.requestId]: `warm-${i}`,
        },
      });
      if (answer.statusCode !== 200) throw new Error(`warm-up read answered ${answer.statusCode}`);
    }
    await warm.close();
    const current = await runScenario(hub, orders, {}, settings);
    const old = await runScenario(
      hub,
      orders,
      { projectQuoteCost: 1, visitorBucket: { ratePerSecond: 10, burst: 20 } },
      settings,
    );
    return {
      scenario: {
        ...settings,
        readRoute: "GET /v1/order/{orderId}/status (cached projection)",
        quoteRoute:
          "POST /v1/quote (the hub answers EIN0008: no provider quotes; it is admitted all the same)",
        transport: "in-process hub, clients on 127.0.0.x over HTTP keep-alive",
      },
      machine: { cpus: cpus().length },
      database: db.driver,
      defaults: current,
      oldSizes: old,
    };
  } finally {
    await hub.close();
    await aggregator.close();
    await db.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await run(), null, 2));
}
