// The gateway benchmark's in-process path built up in steps, each a node:http server in this process
// under the same load: `node --max-semi-space-size=64 --conditions=source --import tsx bench/gateway-steps.ts`
// prints server CPU µs per request for bare (the catalog's bytes, two headers, chunked), bare-headers
// (reads request.headers and writes the gateway's eight headers with a Content-Length), bare-hub (that
// plus the hub's in-process call) and the gateway. STEPS=bare,gateway picks steps; SECS the seconds.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { newRequestId } from "@hub/contract";
import { createInProcessHubTransport } from "@hub/gateway-app";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { pino } from "pino";
import { singleKeyStore, startLoggedGateway } from "./bench-gateway.js";
import { benchCatalog } from "./gateway-catalog.js";
import { load } from "./load-process.js";

const HUB_SECRET = "bench-gateway-credential-0123456789abcdef";
const hub = createTestHubApp({
  config: { gatewayCredential: HUB_SECRET, perIpBucket: { ratePerSecond: 1e9, burst: 1e9 } },
  catalog: benchCatalog(),
  logger: pino({ level: "silent" }),
});
const { key, store } = singleKeyStore("org_bench");
const hubHeaders = { "x-gateway-credential": HUB_SECRET, "x-service-org": "org_bench" };
const sample = await hub.handle({ method: "GET", url: "/v1/catalog", headers: hubHeaders });
const contentType = String(sample.headers["content-type"]);

/** The gateway's eight answer headers, in its order, with the values the benchmark's key gets. */
function gatewayHeaders(requestId: string, length: number) {
  return {
    "content-type": contentType,
    "x-request-id": requestId,
    "ratelimit-limit": "1000000000",
    "ratelimit-remaining": "999999999",
    "ratelimit-reset": "1",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "content-length": length,
  };
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;
const handlers: Record<string, Handler> = {
  bare: (_request, response) => {
    response.writeHead(200, { "content-type": contentType, "x-request-id": "bench" });
    response.end(sample.body);
  },
  "bare-headers": (request, response) => {
    const status = request.headers["x-api-key"] === undefined ? 401 : 200;
    response.writeHead(status, gatewayHeaders(newRequestId(), sample.body.length));
    response.end(sample.body);
  },
  "bare-hub": (request, response) => {
    const requestId = newRequestId();
    const headers = { ...hubHeaders, "x-request-id": requestId, "x-forwarded-for": "127.0.0.1" };
    const status = request.headers["x-api-key"] === undefined ? 401 : 200;
    hub.handle({ method: "GET", url: "/v1/catalog", headers }).then(
      (answer) => {
        response.writeHead(status, gatewayHeaders(requestId, answer.body.length));
        response.end(answer.body);
      },
      () => response.destroy(),
    );
  },
};

const settings = { connections: 16, durationSeconds: Number(process.env.SECS ?? 8), warmupSeconds: 2 };
for (const step of (process.env.STEPS ?? "bare,bare-headers,bare-hub,gateway").split(",")) {
  let url: string;
  let close: () => Promise<void>;
  const handler = handlers[step];
  if (step === "gateway") {
    const gateway = await startLoggedGateway(createInProcessHubTransport(hub), {
      hubSecret: HUB_SECRET,
      store,
    });
    url = gateway.url;
    close = gateway.close;
  } else if (handler === undefined) {
    throw new Error(`no step ${step}: bare, bare-headers, bare-hub or gateway`);
  } else {
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  }
  const result = await load(`${url}/v1/catalog`, { "x-api-key": key }, settings, { label: step });
  console.log(
    JSON.stringify({
      step,
      requestsPerSecond: result.requestsPerSecond,
      serverCpuMicrosPerRequest: result.serverCpuMicrosPerRequest,
      non2xx: result.non2xx,
    }),
  );
  await close();
}
await hub.close();
process.exit(0);
