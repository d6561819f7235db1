// One HTTP hop in a process of its own, for the gateway benchmark: the gateway with the HTTP transport,
// the bare node:http forwarder, or the node:net forwarder that parses no HTTP (bench-gateway.ts), each in
// front of the hub's listener. The parent reads this process's CPU time over IPC, so the hop's cost is
// measured directly, as nginx's worker's is, not as a difference between two runs of one process.
// Started by bench/gateway.ts: `<kind> <hub url> <hub secret> <organization>`.
import type { AddressInfo } from "node:net";
import { systemClock } from "@hub/clock";
import { createMemoryCounters } from "@hub/counters";
import {
  createCredentialResolver,
  createGatewayApp,
  createHttpHubTransport,
  createUsageTally,
} from "@hub/gateway-app";
import { pino } from "pino";
import { createFloorForwarder, createSocketFloorForwarder, singleKeyStore } from "./bench-gateway.js";

export type HopKind = "gateway" | "node-http-floor" | "socket-floor";

export interface HopReady {
  port: number;
  /** The organization's key, for the gateway; the forwarders need none. */
  key: string;
}

const [kind, hubUrl, hubSecret, organization] = process.argv.slice(2) as [HopKind, string, string, string];
const transport = createHttpHubTransport({ url: hubUrl, connections: 32 });
const hubHeaders = { "x-gateway-credential": hubSecret, "x-service-org": organization };

async function listen(): Promise<HopReady> {
  if (kind === "gateway") {
    const quiet = pino({ level: "silent" });
    const { key, store } = singleKeyStore(organization);
    const app = createGatewayApp({
      config: { hubCredential: hubSecret, organizationPool: { ratePerSecond: 1e9, burst: 1e9 } },
      credentials: createCredentialResolver({}, { store, logger: quiet }),
      counters: createMemoryCounters(),
      transport,
      // As in production: one info line per call, here to /dev/null; usage counted, its rows kept nowhere.
      logger: pino({ level: "info" }, pino.destination({ dest: "/dev/null", sync: false })),
      usage: createUsageTally({}, { store: { addUsage: async () => {} }, logger: quiet, clock: systemClock }),
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
    return { port: (app.server.address() as AddressInfo).port, key };
  }
  const server =
    kind === "node-http-floor"
      ? createFloorForwarder(transport, hubHeaders)
      : createSocketFloorForwarder(transport, hubHeaders);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, key: "" };
}

process.send!(await listen());
// Each "cpu" message is answered with this process's CPU time so far (user + system), in µs.
process.on("message", () => {
  const { user, system } = process.cpuUsage();
  process.send!(user + system);
});
process.on("disconnect", () => process.exit(0));
