// The real gateway in front of a hub in this process (in-process transport), on 127.0.0.1, with one
// generated API key for one organization and no pool or bucket a benchmark could reach. Shared by the
// benchmarks that measure a route as a client sees it.
import { createServer, type Server } from "node:http";
import { type AddressInfo, createServer as createNetServer, type Server as NetServer } from "node:net";
import { generateApiKey, type HubTransport, hashApiKey } from "@hub/contract";
import { createMemoryCounters } from "@hub/counters";
import { systemClock } from "@hub/clock";
import {
  createCredentialResolver,
  createGatewayApp,
  createInProcessHubTransport,
  createUsageTally,
} from "@hub/gateway-app";
import type { HubApp } from "@hub/hub-app";
import { pino } from "pino";

export interface BenchGateway {
  url: string;
  /** The organization's secret key (`x-api-key`). */
  key: string;
  close(): Promise<void>;
}

/** A key store that knows one key, of `organization`: no database behind the gateway's lookups. */
export function singleKeyStore(organization: string): {
  key: string;
  store: Parameters<typeof createCredentialResolver>[1]["store"];
} {
  const key = generateApiKey();
  const keyHash = hashApiKey(key);
  return {
    key,
    store: {
      async findKeyByHash(hash: string) {
        return hash === keyHash
          ? { keyId: "key_bench", orgId: organization, expiresAt: null, revokedAt: null }
          : undefined;
      },
      async findProjectByPublicId() {
        return undefined;
      },
      async markKeysUsed() {},
    },
  };
}

export async function startBenchGateway(
  hub: HubApp,
  options: { hubSecret: string; organization: string },
): Promise<BenchGateway> {
  const quiet = pino({ level: "silent" });
  const { key, store } = singleKeyStore(options.organization);
  const credentials = createCredentialResolver({}, { store, logger: quiet });
  const transport = createInProcessHubTransport(hub);
  const gateway = createGatewayApp({
    config: { hubCredential: options.hubSecret, organizationPool: { ratePerSecond: 1e9, burst: 1e9 } },
    credentials,
    counters: createMemoryCounters(),
    transport,
    // The gateway logs as in production: one info line per call, here to /dev/null.
    logger: pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false })),
  });
  await gateway.listen({ port: 0, host: "127.0.0.1" });
  return {
    url: `http://127.0.0.1:${(gateway.server.address() as AddressInfo).port}`,
    key,
    async close() {
      await gateway.close();
      await credentials.close();
      await transport.close();
    },
  };
}

/**
 * The gateway as production runs it (one info line a call, here to /dev/null; usage counted, its rows
 * kept nowhere) in front of `transport`, listening on 127.0.0.1 with `store`'s one key and no pool or
 * bucket a benchmark could reach. The gateway benchmark's in-process and HTTP-transport runs and its
 * hop process use it.
 */
export async function startLoggedGateway(
  transport: HubTransport,
  options: { hubSecret: string; store: ReturnType<typeof singleKeyStore>["store"] },
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const quiet = pino({ level: "silent" });
  const credentials = createCredentialResolver({}, { store: options.store, logger: quiet });
  const usage = createUsageTally(
    {},
    { store: { addUsage: async () => {} }, logger: quiet, clock: systemClock },
  );
  const app = createGatewayApp({
    config: { hubCredential: options.hubSecret, organizationPool: { ratePerSecond: 1e9, burst: 1e9 } },
    credentials,
    counters: createMemoryCounters(),
    transport,
    logger: pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false })),
    usage,
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      await app.close();
      await usage.close();
      await credentials.close();
      await transport.close();
    },
  };
}

/**
 * The least a Node hop costs: a bare node:http server forwarding each request with `transport` to the
 * hub with `headers` and writing the answer back, no checks (the gateway benchmark's floor).
 */
export function createFloorForwarder(transport: HubTransport, headers: Record<string, string>): Server {
  return createServer((request, response) => {
    transport.send({ method: request.method ?? "GET", url: request.url ?? "/", headers }).then(
      (answer) => {
        response.writeHead(answer.statusCode, {
          "content-type": answer.headers["content-type"],
          "x-request-id": answer.headers["x-request-id"],
        });
        response.end(answer.body);
      },
      () => {
        response.writeHead(502);
        response.end();
      },
    );
  });
}

/**
 * Less than any HTTP server can be: a node:net server that reads only the request line of each
 * request head (no headers, no body, no validation), forwards it with `transport` and writes the
 * answer back as one buffer. Not a usable server; the gateway benchmark's measure of what a hop costs
 * in Node itself (event loop, sockets, the transport's client) before any HTTP server runs.
 */
export function createSocketFloorForwarder(
  transport: HubTransport,
  headers: Record<string, string>,
): NetServer {
  return createNetServer((socket) => {
    socket.on("error", () => socket.destroy());
    socket.setNoDelay(true);
    let pending = "";
    socket.on("data", (chunk: Buffer) => {
      pending += chunk.toString("latin1");
      for (let end = pending.indexOf("\r\n\r\n"); end >= 0; end = pending.indexOf("\r\n\r\n")) {
        const [method = "GET", url = "/"] = pending.slice(0, pending.indexOf("\r\n")).split(" ");
        pending = pending.slice(end + 4);
        transport.send({ method, url, headers }).then(
          (answer) => {
            const head =
              `HTTP/1.1 ${answer.statusCode} OK\r\ncontent-type: ${answer.headers["content-type"]}\r\n` +
              `x-request-id: ${answer.headers["x-request-id"]}\r\ncontent-length: ${answer.body.length}\r\n\r\n`;
            const bytes = Buffer.allocUnsafe(head.length + answer.body.length);
            bytes.write(head, 0, "latin1");
            answer.body.copy(bytes, head.length);
            socket.write(bytes);
          },
          () => socket.destroy(),
        );
      }
    });
  });
}
