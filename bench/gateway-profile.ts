// Profiles the gateway path alone: `BENCH_CPU_PROFILE_DIR=<dir> node --import tsx bench/gateway-profile.ts`
// serves GET /v1/catalog through the gateway and in-process hub under 6 s of load from a separate process
// and writes <dir>/gateway-profile.cpuprofile of the load alone (BARE=1: the bare node:http server
// instead; HTTP_TRANSPORT=1: the gateway calls the hub's listener; FLOOR=1: a bare node:http server that
// forwards to the hub's listener with the same transport, no checks). It prints the server's CPU per request.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMemoryCounters } from "@hub/counters";
import {
  createCredentialResolver,
  createGatewayApp,
  createHttpHubTransport,
  createInProcessHubTransport,
} from "@hub/gateway-app";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { pino } from "pino";
import { createFloorForwarder, singleKeyStore } from "./bench-gateway.js";
import { benchCatalog } from "./gateway-catalog.js";
import { load } from "./load-process.js";

const HUB_SECRET = "bench-gateway-credential-0123456789abcdef";
const quiet = pino({ level: "silent" });
const hub = createTestHubApp({
  config: { gatewayCredential: HUB_SECRET, perIpBucket: { ratePerSecond: 1e9, burst: 1e9 } },
  catalog: benchCatalog(),
  logger: quiet,
});
const { key, store } = singleKeyStore("org_bench");
// HTTP_TRANSPORT=1: the gateway reaches the hub's own listener (in this process) over HTTP.
if (process.env.HTTP_TRANSPORT || process.env.FLOOR) await hub.app.listen({ port: 0, host: "127.0.0.1" });
const transport =
  process.env.HTTP_TRANSPORT || process.env.FLOOR
    ? createHttpHubTransport({
        url: `http://127.0.0.1:${(hub.app.server.address() as AddressInfo).port}`,
        connections: 32,
      })
    : createInProcessHubTransport(hub);
const credentials = createCredentialResolver({}, { store, logger: quiet });
const app = createGatewayApp({
  config: { hubCredential: HUB_SECRET, organizationPool: { ratePerSecond: 1e9, burst: 1e9 } },
  credentials,
  counters: createMemoryCounters(),
  transport,
  logger: pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false })),
});
const sample = await hub.handle({
  method: "GET",
  url: "/v1/catalog",
  headers: { "x-gateway-credential": HUB_SECRET, "x-service-org": "org_bench", "x-request-id": "bench" },
});
const bare = createServer((_request, response) => {
  response.writeHead(200, {
    "content-type": sample.headers["content-type"] as string,
    "x-request-id": "bench",
  });
  response.end(sample.body);
});
const floorHeaders = { "x-gateway-credential": HUB_SECRET, "x-service-org": "org_bench" };
const floor = createFloorForwarder(transport, floorHeaders);
const server = process.env.BARE ? bare : process.env.FLOOR ? floor : app.server;
if (server === app.server) await app.listen({ port: 0, host: "127.0.0.1" });
else await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/catalog`;
const result = await load(
  url,
  { "x-api-key": key },
  { connections: 16, durationSeconds: 6, warmupSeconds: 1 },
  { label: "gateway-profile" },
);
console.log(JSON.stringify({ ...result, cpuMicros: result.serverCpuMicrosPerRequest }));
if (server !== app.server) server.close();
await app.close();
await transport.close();
await credentials.close();
await hub.close();
process.exit(0);
