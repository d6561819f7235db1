// Quote round overhead: the time a POST /quote takes in the hub above its slowest provider, at 1, 16
// and 64 concurrent quotes. Two providers answer real devnet quotes (recorded once per level) after a
// fixed delay (10 ms and 25 ms); overhead = the hub's answer time - 25 ms. It covers the upstream HTTP on
// loopback, parsing, vetting (typed data rebuilt and hashed) of 4 quotes per provider, ranking,
// disclosure and the quotes-table insert (PGlite), through the hub's in-process entry.

import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type CatalogChain, type HubAnswer, hubHeaders } from "@hub/contract";
import { createDevnet } from "@hub/devnet-app";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { createTestDatabases } from "@hub/store";
import { pino } from "pino";
import { request } from "undici";
import { laneTable } from "../apps/hub/src/lanes/lane-table.js";
import { buildOifQuoteRequest } from "../apps/hub/src/quotes/oif/build-oif-quote-request.js";
import { resolveQuoteRoute } from "../apps/hub/src/quotes/resolve-quote-route.js";
import type { ProviderConfigInput } from "../apps/hub/src/upstream/providers-config.js";

const PROVIDER_DELAYS_MS = [10, 25];
const LEVELS = [
  { concurrency: 1, rounds: 60 },
  { concurrency: 16, rounds: 160 },
  { concurrency: 64, rounds: 320 },
];
const GATEWAY_SECRET = "bench-gateway-secret-0123456789abcdef";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/** A provider stand-in answering POST /api/v1/quotes with the recorded answer for the asked order type. */
async function startCannedProvider(delayMs: number, answers: Map<string, string>) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { supportedTypes: string[] };
      const answer = answers.get(body.supportedTypes[0]!);
      setTimeout(() => {
        res.writeHead(answer ? 200 : 400, { "content-type": "application/json" });
        res.end(answer ?? JSON.stringify({ error: "AGGREGATION_ERROR", message: "none" }));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function run(): Promise<object> {
  const dataDir = await mkdtemp(join(tmpdir(), "bench-quotes-"));
  const devnet = await createDevnet({
    port: 0,
    rpcPorts: [0, 0],
    dataDir,
    logger: pino({ level: "silent" }),
  });
  const databases = createTestDatabases({ databaseUrl: undefined });
  const db = await databases.open("pglite");
  const answers = new Map<string, string>();
  const providers = await Promise.all(PROVIDER_DELAYS_MS.map((delay) => startCannedProvider(delay, answers)));
  const providerConfigs: ProviderConfigInput[] = providers.map((p, i) => ({
    id: `p${i}`,
    kind: "oif-aggregator",
    dialect: "oif-aggregator",
    baseUrl: p.url,
    connections: 128,
    // Long enough that a loaded machine shows up as overhead, not as refusals.
    timeoutMs: 14_000,
  }));
  const hub = createTestHubApp({
    config: { gatewayCredential: GATEWAY_SECRET, organizationBucket: { ratePerSecond: 1e6, burst: 1e6 } },
    catalog: devnet.catalog,
    logger: pino({ level: process.env.BENCH_LOG ?? "silent" }, pino.destination(2)),
    replicaId: "bench",
    sql: db.sql,
    providers: providerConfigs,
  });
  try {
    const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
    const usdc = (chain: CatalogChain) => chain.assets.find((a) => a.symbol === "USDC")!.key;
    const user = devnet.manifest.users[0]!.address;
    const body = {
      sourceAsset: usdc(origin),
      destinationAsset: usdc(destination),
      amount: "1000000",
      recipient: user,
      sourceAccount: user,
      swapType: "exact-input" as const,
    };
    const route = resolveQuoteRoute(devnet.catalog, body);
    const record = async () => {
      for (const lane of route.lanes) {
        const upstream = await request(`${devnet.url}/aggregator/api/v1/quotes`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(buildOifQuoteRequest(route, lane, { providerTimeoutMs: 5000 })),
        });
        answers.set(laneTable[lane].oif.product, await upstream.body.text());
      }
    };
    const payload = Buffer.from(JSON.stringify(body));
    const headers = {
      [hubHeaders.gatewayCredential]: GATEWAY_SECRET,
      [hubHeaders.organization]: "org_bench",
      [hubHeaders.subject]: "bench-user",
      "content-type": "application/json",
    };
    const failures: Record<string, number> = {};
    const quoteOnce = async (): Promise<number | undefined> => {
      const started = performance.now();
      const answer: HubAnswer = await hub.handle({
        method: "POST",
        url: "/v1/quote",
        headers,
        body: payload,
      });
      const elapsed = performance.now() - started;
      const envelope = JSON.parse(answer.body.toString("utf8")) as {
        success: boolean;
        errors?: { error_code: string }[];
      };
      if (envelope.success) return elapsed;
      const code = envelope.errors?.[0]?.error_code ?? "unknown";
      failures[code] = (failures[code] ?? 0) + 1;
      return undefined;
    };

    const slowest = Math.max(...PROVIDER_DELAYS_MS);
    const results: Record<string, object> = {};
    await record();
    for (let i = 0; i < 20; i += 1) await quoteOnce();
    for (const level of LEVELS) {
      await record();
      const samples: number[] = [];
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: level.concurrency }, async () => {
          while (next < level.rounds) {
            next += 1;
            const elapsed = await quoteOnce();
            if (elapsed !== undefined) samples.push(elapsed - slowest);
          }
        }),
      );
      const wallMs = performance.now() - started;
      samples.sort((a, b) => a - b);
      results[String(level.concurrency)] = {
        rounds: level.rounds,
        answered: samples.length,
        overheadP50Ms: round(percentile(samples, 50)),
        overheadP99Ms: round(percentile(samples, 99)),
        overheadMaxMs: round(samples[samples.length - 1]!),
        quotesPerSecond: Math.round((samples.length / wallMs) * 1000),
      };
    }
    return {
      what: "POST /quote time in the hub minus the slowest provider's fixed delay",
      providerDelaysMs: PROVIDER_DELAYS_MS,
      upstreamCallsPerRound: providers.length * route.lanes.length,
      quotesVettedPerRound: providers.length * route.lanes.length * 2,
      database: "pglite",
      refusals: failures,
      loadAverage1m: loadavg()[0],
      byConcurrency: results,
    };
  } finally {
    await hub.close();
    await Promise.all(providers.map((p) => p.close()));
    await db.dispose();
    await databases.dispose();
    await devnet.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
