// Gateway benchmark: requests/s and p50/p99 of GET /v1/catalog through the gateway (in-process hub,
// the default), straight to the hub's own HTTP listener, and from a bare node:http server answering the
// same bytes; then p99 through the gateway at half the bare server's throughput; then the HTTP transport
// (gateway → the hub's listener) beside the least a Node hop costs (a bare node:http server forwarding with
// the same transport, no checks) and an nginx proxy_pass hop to the same listener (bench/gateway-nginx.ts);
// then the gateway and both floors again, each in a process of its own (bench/gateway-hop-process.ts),
// with a node:net forwarder that parses no HTTP beside them. The load generator
// (autocannon) runs in its own process on loopback. `npm run bench -- gateway`, or standalone:
// `node --import tsx bench/gateway.ts`.
import { fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { cpus, loadavg } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { HubTransport } from "@hub/contract";
import { createHttpHubTransport, createInProcessHubTransport } from "@hub/gateway-app";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { pino } from "pino";
import { createFloorForwarder, singleKeyStore, startLoggedGateway } from "./bench-gateway.js";
import { benchCatalog } from "./gateway-catalog.js";
import type { HopKind, HopReady } from "./gateway-hop-process.js";
import { startNginxHop } from "./gateway-nginx.js";
import { type LoadResult, type LoadSettings, load } from "./load-process.js";

const HUB_SECRET = "bench-gateway-credential-0123456789abcdef";
const ORG = "org_bench";

async function listenOn(server: {
  listen(port: number, host: string, cb: () => void): unknown;
  address(): unknown;
}) {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

const hopScript = fileURLToPath(new URL("./gateway-hop-process.ts", import.meta.url));

/**
 * One hop (bench/gateway-hop-process.ts) in its own process in front of the hub's listener, loaded like
 * the others; its CPU time per request (warm-up included) read from that process.
 */
async function hopInOwnProcess(
  kind: HopKind,
  hubUrl: string,
  settings: LoadSettings,
): Promise<{
  cpuMicrosPerRequest: number;
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}> {
  const child = fork(hopScript, [kind, hubUrl, HUB_SECRET, ORG], {
    execArgv: ["--max-semi-space-size=64", "--import", "tsx"],
  });
  const exited = new Promise<never>((_resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`the ${kind} hop's process exited (${code})`)));
  });
  exited.catch(() => {});
  // The child's next message, or its exit as an error (a child that fails to start must not hang the run).
  const next = () =>
    Promise.race([new Promise<unknown>((resolve) => child.once("message", resolve)), exited]);
  try {
    const ready = (await next()) as HopReady;
    const cpu = async () => {
      const answer = next();
      child.send("cpu");
      return (await answer) as number;
    };
    const headers: Record<string, string> = kind === "gateway" ? { "x-api-key": ready.key } : {};
    const before = await cpu();
    const result = await load(`http://127.0.0.1:${ready.port}/v1/catalog`, headers, settings, {
      label: `gateway-own-process-${kind}`,
    });
    const spent = (await cpu()) - before;
    return {
      cpuMicrosPerRequest: Math.round(spent / Math.max(1, result.requests + result.warmupRequests)),
      requestsPerSecond: result.requestsPerSecond,
      p99Ms: result.p99Ms,
      // A hop that fails is cheap: these must be 0 for its figure to count.
      non2xx: result.non2xx,
      errors: result.errors,
    };
  } finally {
    if (child.connected) child.disconnect();
    await exited.catch(() => {});
  }
}

/** Runs the whole benchmark and returns its figures. */
export async function run(options: Partial<LoadSettings> = {}): Promise<object> {
  const settings: LoadSettings = {
    connections: options.connections ?? 16,
    durationSeconds: options.durationSeconds ?? 10,
    warmupSeconds: options.warmupSeconds ?? 3,
  };
  const loadBefore = loadavg()[0];
  const quiet = pino({ level: "silent" });

  const hub = createTestHubApp({
    config: { gatewayCredential: HUB_SECRET, perIpBucket: { ratePerSecond: 1e9, burst: 1e9 } },
    catalog: benchCatalog(),
    logger: quiet,
  });
  await hub.app.listen({ port: 0, host: "127.0.0.1" });
  const hubUrl = `http://127.0.0.1:${(hub.app.server.address() as AddressInfo).port}`;

  const { key, store } = singleKeyStore(ORG);

  const startGateway = (transport: HubTransport) =>
    startLoggedGateway(transport, { hubSecret: HUB_SECRET, store });

  // The bare server answers the bytes the hub answers for the catalog, with the same headers.
  const sample = await hub.handle({
    method: "GET",
    url: "/v1/catalog",
    headers: { "x-gateway-credential": HUB_SECRET, "x-service-org": ORG, "x-request-id": "bench" },
  });
  const bare = createServer((_request, response) => {
    response.writeHead(200, {
      "content-type": sample.headers["content-type"] as string,
      "x-request-id": "bench",
    });
    response.end(sample.body);
  });
  const barePort = await listenOn(bare);

  const results: Record<string, unknown> = {};
  try {
    const bareResult = await load(`http://127.0.0.1:${barePort}/v1/catalog`, {}, settings, {
      label: "gateway-bare",
    });
    results.bareNodeHttp = bareResult;
    results.hubDirect = await load(
      `${hubUrl}/v1/catalog`,
      { "x-gateway-credential": HUB_SECRET, "x-service-org": ORG },
      settings,
      { label: "gateway-hub-direct" },
    );

    const inProcess = await startGateway(createInProcessHubTransport(hub));
    try {
      const gatewayResult = await load(`${inProcess.url}/v1/catalog`, { "x-api-key": key }, settings, {
        label: "gateway-in-process",
      });
      results.gatewayInProcess = gatewayResult;
      const halfRate = Math.round(bareResult.requestsPerSecond / 2);
      const half = await load(`${inProcess.url}/v1/catalog`, { "x-api-key": key }, settings, {
        overallRate: halfRate,
      });
      results.gatewayAtHalfBareRate = { targetRate: halfRate, ...half };
      // The same rate on the bare server: what the machine itself gives p99 at that load.
      const bareHalf = await load(`http://127.0.0.1:${barePort}/v1/catalog`, {}, settings, {
        overallRate: halfRate,
      });
      results.bareAtHalfBareRate = { targetRate: halfRate, ...bareHalf };
      results.verdict = {
        throughputRatio: Number((gatewayResult.requestsPerSecond / bareResult.requestsPerSecond).toFixed(3)),
        throughputTarget: 0.5,
        // The same ratio from CPU time per request: what one core would give each, whatever else runs.
        cpuThroughputRatio: Number(
          (
            (bareResult.serverCpuMicrosPerRequest ?? 0) /
            Math.max(1, gatewayResult.serverCpuMicrosPerRequest ?? 1)
          ).toFixed(3),
        ),
        p99AtHalfLoadMs: half.p99Ms,
        p99TargetMs: 5,
        halfRateHeld: half.requestsPerSecond >= halfRate * 0.95,
        met:
          gatewayResult.requestsPerSecond >= bareResult.requestsPerSecond * 0.5 &&
          half.p99Ms < 5 &&
          half.requestsPerSecond >= halfRate * 0.95,
      };
    } finally {
      await inProcess.close();
    }

    const overHttp = await startGateway(createHttpHubTransport({ url: hubUrl, connections: 32 }));
    let gatewayHttp: LoadResult;
    try {
      gatewayHttp = await load(`${overHttp.url}/v1/catalog`, { "x-api-key": key }, settings, {
        label: "gateway-http-transport",
      });
      results.gatewayHttpTransport = gatewayHttp;
    } finally {
      await overHttp.close();
    }

    // The least a Node hop costs: a bare node:http server that forwards each request with the same
    // transport to the hub's listener and writes its answer back, with no check, deadline or log.
    const floorTransport = createHttpHubTransport({ url: hubUrl, connections: 32 });
    const floorHeaders = { "x-gateway-credential": HUB_SECRET, "x-service-org": ORG };
    const floor = createFloorForwarder(floorTransport, floorHeaders);
    const floorPort = await listenOn(floor);
    let floorHop: LoadResult;
    try {
      floorHop = await load(`http://127.0.0.1:${floorPort}/v1/catalog`, {}, settings, {
        label: "gateway-floor-hop",
      });
      results.nodeHopFloor = floorHop;
    } finally {
      await new Promise<void>((resolve) => floor.close(() => resolve()));
      await floorTransport.close();
    }

    // Each hop again in a process of its own, its CPU read from that process: the issue's "gateway and
    // hub in two processes", with no difference of two runs in it. The node:net forwarder parses no HTTP
    // at all: what a hop costs in Node before any HTTP server runs.
    const ownProcess = {
      gateway: await hopInOwnProcess("gateway", hubUrl, settings),
      nodeHttpFloor: await hopInOwnProcess("node-http-floor", hubUrl, settings),
      socketFloor: await hopInOwnProcess("socket-floor", hubUrl, settings),
    };
    results.hopsInOwnProcess = ownProcess;

    // The same hop made by nginx: proxy_pass to the hub's listener, the hub credential set by nginx.
    const nginx = await startNginxHop(new URL(hubUrl).host, {
      "x-gateway-credential": HUB_SECRET,
      "x-service-org": ORG,
    });
    if ("unavailable" in nginx) results.nginxProxyPass = { unavailable: nginx.unavailable };
    else {
      try {
        const nginxCpuBefore = nginx.cpuMicros();
        const viaNginx = await load(`${nginx.url}/v1/catalog`, {}, settings);
        const nginxCpu = nginx.cpuMicros() - nginxCpuBefore;
        const hopMicros = nginxCpu / Math.max(1, viaNginx.requests + viaNginx.warmupRequests);
        results.nginxProxyPass = { ...viaNginx, nginxWorkerCpuMicrosPerRequest: Math.round(hopMicros) };
        // What the gateway adds in front of the hub's listener (gateway over HTTP less the hub alone),
        // against what nginx adds in front of it.
        const gatewayHopMicros =
          (gatewayHttp.serverCpuMicrosPerRequest ?? 0) -
          (results.hubDirect as LoadResult).serverCpuMicrosPerRequest!;
        // The same for the bare forwarding server: the floor any Node hop stands on.
        const floorHopMicros =
          (floorHop.serverCpuMicrosPerRequest ?? 0) -
          (results.hubDirect as LoadResult).serverCpuMicrosPerRequest!;
        results.httpTransportVerdict = {
          gatewayHopCpuMicrosPerRequest: gatewayHopMicros,
          nginxHopCpuMicrosPerRequest: Math.round(hopMicros),
          ratioToNginx: Number((gatewayHopMicros / Math.max(1, hopMicros)).toFixed(2)),
          target: 1.5,
          nodeHopFloorCpuMicrosPerRequest: floorHopMicros,
          floorRatioToNginx: Number((floorHopMicros / Math.max(1, hopMicros)).toFixed(2)),
          // Each hop's own process against nginx's worker (warm-up included in both).
          inOwnProcessRatioToNginx: Object.fromEntries(
            Object.entries(ownProcess).map(([name, hop]) => [
              name,
              Number((hop.cpuMicrosPerRequest / Math.max(1, hopMicros)).toFixed(2)),
            ]),
          ),
        };
      } finally {
        await nginx.close();
      }
    }
  } finally {
    await new Promise<void>((resolve) => bare.close(() => resolve()));
    await hub.close();
  }
  return {
    route: "GET /v1/catalog",
    catalogBytes: sample.body.length,
    machine: { cpus: cpus().length, loadAverage1mBefore: loadBefore, loadAverage1mAfter: loadavg()[0] },
    settings: { ...settings, generator: "autocannon 9.0.0 in a separate process, loopback" },
    ...results,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await run(), null, 2));
  process.exit(0);
}
