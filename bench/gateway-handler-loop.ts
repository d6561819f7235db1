// CPU per call of the gateway's /v1 handler with the in-process hub behind it, without sockets:
// `node --import tsx bench/gateway-handler-loop.ts` answers GET /v1/catalog on a fake request and
// response, 16 calls in flight, and prints process.cpuUsage() per call for each round (N calls, ROUNDS
// rounds). Node's HTTP server is left out, so a change to the gateway's or the hub's own JavaScript
// shows here without the load generator's noise. BENCH_CPU_PROFILE_DIR=<dir> writes <dir>/handler-loop.cpuprofile.
// HTTP_ANSWER=1: the transport answers at once with the hub's catalog answer as the HTTP transport parses
// it off the wire (its hop headers included), so only the gateway's own work on the HTTP path shows.
import type { IncomingMessage, ServerResponse } from "node:http";
import { systemClock } from "@hub/clock";
import type { HubTransport } from "@hub/contract";
import { createMemoryCounters } from "@hub/counters";
import { createCredentialResolver, createInProcessHubTransport, gatewayConfigSchema } from "@hub/gateway-app";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { pino } from "pino";
import { Registry } from "prom-client";
import { createApiCallHandler } from "../apps/gateway/src/create-api-call-handler.js";
import { createGatewayMetrics } from "../apps/gateway/src/gateway-metrics.js";
import { HubAnswerParser } from "../apps/gateway/src/hub-answer-parser.js";
import { singleKeyStore } from "./bench-gateway.js";
import { benchCatalog } from "./gateway-catalog.js";
import { measureHandlerLoop } from "./handler-loop.js";

const HUB_SECRET = "bench-gateway-credential-0123456789abcdef";
const calls = Number(process.env.N ?? 200_000);
const rounds = Number(process.env.ROUNDS ?? 3);
const quiet = pino({ level: "silent" });
const hub = createTestHubApp({
  config: { gatewayCredential: HUB_SECRET, perIpBucket: { ratePerSecond: 1e9, burst: 1e9 } },
  catalog: benchCatalog(),
  logger: quiet,
});
const { key, store } = singleKeyStore("org_bench");

/** A transport that answers every call with the catalog answer's bytes as the HTTP transport parses them. */
async function parsedAnswerTransport(): Promise<HubTransport> {
  const sample = await hub.handle({
    method: "GET",
    url: "/v1/catalog",
    headers: { "x-gateway-credential": HUB_SECRET, "x-service-org": "org_bench", "x-request-id": "bench" },
  });
  const head =
    `HTTP/1.1 200 OK\r\ncontent-type: ${sample.headers["content-type"]}\r\nx-request-id: bench\r\n` +
    `content-length: ${sample.body.length}\r\nDate: ${new Date().toUTCString()}\r\n` +
    "Connection: keep-alive\r\nKeep-Alive: timeout=72\r\n\r\n";
  const bytes = Buffer.concat([Buffer.from(head, "latin1"), sample.body]);
  return {
    send: async () => new HubAnswerParser("GET").push(bytes)!.answer,
    close: async () => {},
  };
}
const credentials = createCredentialResolver({}, { store, logger: quiet });
const handler = createApiCallHandler({
  config: gatewayConfigSchema.parse({
    hubCredential: HUB_SECRET,
    organizationPool: { ratePerSecond: 1e9, burst: 1e9 },
  }),
  credentials,
  counters: createMemoryCounters(),
  transport: process.env.HTTP_ANSWER ? await parsedAnswerTransport() : createInProcessHubTransport(hub),
  metrics: createGatewayMetrics(new Registry()),
  logger: pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: true })),
  clock: systemClock,
  usage: undefined,
});

const socket = { remoteAddress: "127.0.0.1" };
let answeredBytes = 0;

/** Just what the handler uses of Node's response. */
class FakeResponse {
  headersSent = false;
  writeHead(): this {
    this.headersSent = true;
    return this;
  }
  end(body?: Buffer): void {
    answeredBytes += body?.length ?? 0;
  }
}

function once(i: number): Promise<void> {
  const request = { url: "/v1/catalog", method: "GET", headers: { host: "bench", "x-api-key": key }, socket };
  return handler(
    request as unknown as IncomingMessage,
    new FakeResponse() as unknown as ServerResponse,
    `bench-${i}`,
  );
}

await measureHandlerLoop({
  label: "handler-loop",
  calls,
  rounds,
  once,
});
if (answeredBytes === 0) throw new Error("no answer was written");
await credentials.close();
await hub.close();
process.exit(0);
