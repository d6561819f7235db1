// CPU per cached status read of the gateway's /v1 handler with the in-process hub behind it, without
// sockets: `node --import tsx bench/status-handler-loop.ts` seeds 1,000 followed orders (finalized upstream,
// so every read after the first is a projection hit), answers GET /v1/order/{orderId}/status on a fake
// request and response, 16 calls in flight walking the orders, and prints process.cpuUsage() per call for
// each round (N calls, ROUNDS rounds). The status benchmark's load generator and Node's HTTP server are
// left out, so a change to the gateway's or the hub's own JavaScript on this path shows without their
// noise. BENCH_CPU_PROFILE_DIR=<dir> writes <dir>/status-handler-loop.cpuprofile.
import type { IncomingMessage, ServerResponse } from "node:http";
import { systemClock } from "@hub/clock";
import { createMemoryCounters } from "@hub/counters";
import { createCredentialResolver, createInProcessHubTransport, gatewayConfigSchema } from "@hub/gateway-app";
import { createTestDatabases } from "@hub/store";
import { pino } from "pino";
import { Registry } from "prom-client";
import { createApiCallHandler } from "../apps/gateway/src/create-api-call-handler.js";
import { createGatewayMetrics } from "../apps/gateway/src/gateway-metrics.js";
import { startScriptedAggregator } from "../apps/hub/test/fixtures/scripted-aggregator.js";
import { seedAckedOrders } from "../apps/hub/test/store/order-status-seed.js";
import { singleKeyStore } from "./bench-gateway.js";
import { measureHandlerLoop } from "./handler-loop.js";
import { createStatusBenchHub, STATUS_BENCH_HUB_SECRET } from "./status-hub.js";

const ORG = "org_bench";
const SUBJECT = "bench-user";
const calls = Number(process.env.N ?? 200_000);
const rounds = Number(process.env.ROUNDS ?? 3);
const quiet = pino({ level: "silent" });
const databases = createTestDatabases({ databaseUrl: undefined });
const db = await databases.open("pglite");
const aggregator = await startScriptedAggregator();
const hub = createStatusBenchHub(db.sql, aggregator.url, quiet);
const { key, store } = singleKeyStore(ORG);
const credentials = createCredentialResolver({}, { store, logger: quiet });
const handler = createApiCallHandler({
  config: gatewayConfigSchema.parse({
    hubCredential: STATUS_BENCH_HUB_SECRET,
    organizationPool: { ratePerSecond: 1e9, burst: 1e9 },
  }),
  credentials,
  counters: createMemoryCounters(),
  transport: createInProcessHubTransport(hub),
  metrics: createGatewayMetrics(new Registry()),
  logger: pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: true })),
  clock: systemClock,
  usage: undefined,
});

const seeded = await seedAckedOrders(
  db.sql,
  Array.from({ length: 1000 }, (_, index) => ({
    quoteId: `q-loop-${index}`,
    organization: ORG,
    subject: SUBJECT,
    submittedAt: new Date(Date.now() - 3000),
  })),
  {
    providerId: "scripted",
    asset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
    amount: "1",
  },
);
for (const order of seeded) aggregator.orders.set(order.upstreamOrderId, { status: "finalized" });
const paths = seeded.map((order) => `/v1/order/${order.hubOrderId}/status`);

const socket = { remoteAddress: "127.0.0.1" };
let answered = 0;
let refused = 0;

/** Just what the handler uses of Node's response. */
class FakeResponse {
  headersSent = false;
  statusCode = 0;
  writeHead(status: number): this {
    this.headersSent = true;
    this.statusCode = status;
    return this;
  }
  end(): void {
    if (this.statusCode === 200) answered += 1;
    else refused += 1;
  }
}

function once(i: number): Promise<void> {
  const request = {
    url: paths[i % paths.length],
    method: "GET",
    headers: { host: "bench", "x-api-key": key, "x-service-subject": SUBJECT },
    socket,
  };
  return handler(
    request as unknown as IncomingMessage,
    new FakeResponse() as unknown as ServerResponse,
    `bench-${i}`,
  );
}

await measureHandlerLoop({
  label: "status-handler-loop",
  calls,
  rounds,
  once,
  afterWarmUp: () => {
    if (refused > 0) throw new Error(`${refused} reads were not answered 200`);
  },
});
if (answered === 0 || refused > 0) throw new Error(`answered ${answered}, refused ${refused}`);
await credentials.close();
await hub.close();
await aggregator.close();
await db.dispose();
await databases.dispose();
process.exit(0);
