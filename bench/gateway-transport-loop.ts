// CPU per call of the HTTP hub transport alone: `node --import tsx bench/gateway-transport-loop.ts` starts
// the hub (test harness, the bench catalog) in a child process, then sends GET /v1/catalog through
// createHttpHubTransport, 16 calls in flight, and prints this process's CPU (process.cpuUsage) per call
// for each round (N calls, ROUNDS rounds). The hub's CPU is the child's, so only the client side shows.
import { spawn } from "node:child_process";
import { createHttpHubTransport } from "@hub/gateway-app";
import { createDeadlines } from "../apps/gateway/src/create-deadlines.js";

const HUB_SECRET = "bench-gateway-credential-0123456789abcdef";
const calls = Number(process.env.N ?? 50_000);
const rounds = Number(process.env.ROUNDS ?? 3);
const inFlight = 16;

if (process.argv[2] === "hub") {
  const { pino } = await import("pino");
  const { createTestHubApp } = await import("@hub/hub-app/test-harness");
  const { benchCatalog } = await import("./gateway-catalog.js");
  const hub = createTestHubApp({
    config: { gatewayCredential: HUB_SECRET, perIpBucket: { ratePerSecond: 1e9, burst: 1e9 } },
    catalog: benchCatalog(),
    logger: pino({ level: "silent" }),
  });
  const url = await hub.app.listen({ port: 0, host: "127.0.0.1" });
  process.stdout.write(`${url}\n`);
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
} else {
  const child = spawn(process.execPath, ["--import", "tsx", new URL(import.meta.url).pathname, "hub"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("\n")) resolve(out.trim());
    });
  });
  const transport = createHttpHubTransport({ url, connections: 32 });
  const deadlines = createDeadlines();
  const headers = {
    "x-request-id": "bench",
    "user-agent": "hub-gateway",
    "accept-language": "en",
    "x-gateway-credential": HUB_SECRET,
    "x-client-address": "127.0.0.1",
    "x-service-org": "org_bench",
  };
  async function one(): Promise<void> {
    const answer = await deadlines.race(10_000, (deadline) =>
      transport.send({ method: "GET", url: "/v1/catalog", headers: { ...headers }, deadline }),
    );
    if (typeof answer === "symbol" || answer.statusCode !== 200) throw new Error("unexpected answer");
  }
  async function round(n: number): Promise<number> {
    let left = n;
    const before = process.cpuUsage();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (left-- > 0) await one();
      }),
    );
    const cpu = process.cpuUsage(before);
    return (cpu.user + cpu.system) / n;
  }
  await round(Math.min(5_000, calls));
  const perCall: number[] = [];
  for (let i = 0; i < rounds; i++) perCall.push(Number((await round(calls)).toFixed(2)));
  console.log(JSON.stringify({ cpuMicrosPerCall: perCall }));
  await transport.close();
  child.stdin.end();
}
