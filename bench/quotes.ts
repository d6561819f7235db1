// Quote round overhead: the time a POST /quote takes in the hub above its slowest provider, at 1, 16
// and 64 concurrent quotes. Two providers (in a child process) answer real devnet quotes (recorded once
// per level) after a fixed delay (10 ms and 25 ms); overhead = the hub's answer time - 25 ms, and the
// hub process's CPU per round (process.cpuUsage over the level less the process's idle CPU rate, the
// devnet's polling, when the devnet runs in this process: the figure a loaded machine bends least).
// It covers the upstream HTTP on loopback, parsing, vetting (typed data rebuilt and hashed) of 4 quotes
// per provider, ranking, disclosure and the quotes-table insert, through the hub's in-process entry.
// The hub's database is PGlite in this process, or with DATABASE_URL set a schema of its own on that
// PostgreSQL (made and dropped as bench/status.ts does), so the round's CPU can be read without PGlite's
// WebAssembly. The devnet runs in a child process (bench/quotes-devnet.ts) unless BENCH_DEVNET=in-process.

import { mkdtemp, rm } from "node:fs/promises";
import { fork } from "node:child_process";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { type Catalog, type CatalogChain, type HubAnswer, hubHeaders } from "@hub/contract";
import { createDevnet } from "@hub/devnet-app";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { createTestDatabases } from "@hub/store";
import { pino } from "pino";
import { request } from "undici";
import { laneTable } from "../apps/hub/src/lanes/lane-table.js";
import { buildOifQuoteRequest } from "../apps/hub/src/quotes/oif/build-oif-quote-request.js";
import { resolveQuoteRoute } from "../apps/hub/src/quotes/resolve-quote-route.js";
import type { ProviderConfigInput } from "../apps/hub/src/upstream/providers-config.js";
import { profiled } from "./cpu-profile.js";

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

/** The devnet: in a child process (bench/quotes-devnet.ts), or in this one with BENCH_DEVNET=in-process. */
async function startBenchDevnet(): Promise<{
  url: string;
  catalog: Catalog;
  user: string;
  stop(): Promise<void>;
}> {
  if (process.env.BENCH_DEVNET === "in-process") {
    const dataDir = await mkdtemp(join(tmpdir(), "bench-quotes-"));
    const devnet = await createDevnet({
      port: 0,
      rpcPorts: [0, 0],
      dataDir,
      logger: pino({ level: "silent" }),
    });
    return {
      url: devnet.url,
      catalog: devnet.catalog,
      user: devnet.manifest.users[0]!.address,
      stop: async () => {
        await devnet.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const child = fork(new URL("./quotes-devnet.ts", import.meta.url).pathname, [], {
    execArgv: ["--import", "tsx"],
  });
  const started = await new Promise<{ url: string; catalog: Catalog; user: string }>((resolve) =>
    child.once("message", resolve),
  );
  return {
    ...started,
    stop: async () => {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.disconnect();
      await exited;
    },
  };
}

/** The canned providers (bench/quotes-providers.ts) in a child process; `record` hands them answers. */
async function startCannedProviders(delays: number[]) {
  const child = fork(new URL("./quotes-providers.ts", import.meta.url).pathname, delays.map(String), {
    execArgv: ["--import", "tsx"],
  });
  const { urls } = await new Promise<{ urls: string[] }>((resolve) => child.once("message", resolve));
  return {
    urls,
    record: async (answers: Map<string, string>) => {
      const done = new Promise((resolve) => child.once("message", resolve));
      child.send({ answers: [...answers] });
      await done;
    },
    close: () => child.disconnect(),
  };
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/** RSS, the JavaScript heap and array buffers in MiB, after a full GC and a second's rest. */
async function settledMemoryMb(): Promise<{ rss: number; heapUsed: number; arrayBuffers: number }> {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const usage = process.memoryUsage();
  return { rss: mb(usage.rss), heapUsed: mb(usage.heapUsed), arrayBuffers: mb(usage.arrayBuffers) };
}

/** The figures per concurrency level; with `memoryRounds`, only the memory before and after that many quotes. */
export async function run(options: { memoryRounds?: number } = {}): Promise<object> {
  const devnet = await startBenchDevnet();
  const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
  const db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  const answers = new Map<string, string>();
  const providers = await startCannedProviders(PROVIDER_DELAYS_MS);
  const providerConfigs: ProviderConfigInput[] = providers.urls.map((url, i) => ({
    id: `p${i}`,
    kind: "oif-aggregator",
    dialect: "oif-aggregator",
    baseUrl: url,
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
    const { user } = devnet;
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
      await providers.record(answers);
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
    // The devnet in this process polls its chains: its CPU while no quote runs is taken off each level's.
    const idleStarted = performance.now();
    const idleCpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleUsage = process.cpuUsage(idleCpu);
    const idleCpuMsPerMs = (idleUsage.user + idleUsage.system) / 1000 / (performance.now() - idleStarted);
    /** `rounds` quotes, `concurrency` at a time; the answers are recorded afresh every 1,000 rounds. */
    const quoteMany = async (concurrency: number, rounds: number, samples: number[]) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < rounds) {
            next += 1;
            if (next % 1000 === 0) await record();
            const elapsed = await quoteOnce();
            if (elapsed !== undefined) samples.push(elapsed - slowest);
          }
        }),
      );
    };
    if (options.memoryRounds !== undefined) {
      // The same batch several times (BENCH_MEMORY_BATCHES, 2 by default): what the first leaves behind
      // and the later ones do not add to is a cache filling to its bound (PGlite's shared buffers,
      // 128 MB, in WebAssembly memory that never shrinks), not a leak.
      const batches = Math.max(2, Number(process.env.BENCH_MEMORY_BATCHES ?? 2));
      const idleMb = await settledMemoryMb();
      const afterEachBatchAndGcMb: Awaited<ReturnType<typeof settledMemoryMb>>[] = [];
      let rssAfterQuotesMb = 0;
      for (let batch = 0; batch < batches; batch += 1) {
        await quoteMany(64, options.memoryRounds, []);
        if (batch === 0) rssAfterQuotesMb = mb(process.memoryUsage().rss);
        afterEachBatchAndGcMb.push(await settledMemoryMb());
      }
      const devnetWhere = process.env.BENCH_DEVNET === "in-process" ? "in the process" : "in a child process";
      const rssAfter = afterEachBatchAndGcMb.map((m) => m.rss);
      return {
        what: `the hub's process memory idle (after 20 quotes) and after each of ${batches} batches of ${options.memoryRounds} quotes, 64 concurrent (${db.driver}, devnet ${devnetWhere})`,
        loadAverage1m: loadavg()[0],
        idleMb,
        rssAfterQuotesMb,
        afterQuotesAndGcMb: afterEachBatchAndGcMb[0],
        afterEachBatchAndGcMb,
        rssGrowthAfterFirstBatchMb: Math.max(...rssAfter.slice(1)) - rssAfter[0]!,
        refusals: failures,
      };
    }
    for (const level of LEVELS) {
      await record();
      const samples: number[] = [];
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      await profiled(`quotes-${level.concurrency}`, () =>
        quoteMany(level.concurrency, level.rounds, samples),
      );
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMsPerRound = ((cpu.user + cpu.system) / 1000 - idleCpuMsPerMs * wallMs) / level.rounds;
      samples.sort((a, b) => a - b);
      results[String(level.concurrency)] = {
        rounds: level.rounds,
        answered: samples.length,
        overheadP50Ms: round(percentile(samples, 50)),
        overheadP99Ms: round(percentile(samples, 99)),
        overheadMaxMs: round(samples[samples.length - 1]!),
        quotesPerSecond: Math.round((samples.length / wallMs) * 1000),
        hubCpuMsPerRound: round(cpuMsPerRound),
        roundsPerHubCpuSecond: Math.round(1000 / cpuMsPerRound),
      };
    }
    return {
      what: "POST /quote time in the hub minus the slowest provider's fixed delay",
      providerDelaysMs: PROVIDER_DELAYS_MS,
      upstreamCallsPerRound: providers.urls.length * route.lanes.length,
      quotesVettedPerRound: providers.urls.length * route.lanes.length * 2,
      database: db.driver,
      devnet: process.env.BENCH_DEVNET === "in-process" ? "in the hub's process" : "in a child process",
      refusals: failures,
      loadAverage1m: loadavg()[0],
      idleCpuMsPerSecond: round(idleCpuMsPerMs * 1000),
      byConcurrency: results,
    };
  } finally {
    await hub.close();
    providers.close();
    await db.dispose();
    await databases.dispose();
    await devnet.stop();
  }
}
