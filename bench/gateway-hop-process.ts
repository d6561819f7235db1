// One HTTP hop in a process of its own, for the gateway benchmark: the gateway with the HTTP transport,
// the bare node:http forwarder, or the node:net forwarder that parses no HTTP (bench-gateway.ts), each in
// front of the hub's listener. The parent reads this process's CPU time over IPC, so the hop's cost is
// measured directly, as nginx's worker's is, not as a difference between two runs of one process.
// Started by bench/gateway.ts: `<kind> <hub url> <hub secret> <organization>`.
import type { AddressInfo } from "node:net";
import { createHttpHubTransport } from "@hub/gateway-app";
import {
  createFloorForwarder,
  createSocketFloorForwarder,
  singleKeyStore,
  startLoggedGateway,
} from "./bench-gateway.js";

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
    const { key, store } = singleKeyStore(organization);
    const { port } = await startLoggedGateway(transport, { hubSecret, store });
    return { port, key };
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
