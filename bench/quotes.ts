// Quote round overhead: the time a POST /quote takes in the hub above its slowest provider, at 1, 16
// and 64 concurrent quotes. Two providers (in a child process) answer real devnet quotes (recorded once
// per level) after a delay (10 ms and 25 ms); overhead = the hub's answer time - the longest time a
// provider really held one of the round's calls (its timer fires late: each answer says how long it
// held it, `x-bench-held-ms`, read here off the hub's upstream diagnostics channels), and the
// hub process's CPU per round (process.cpuUsage over the level less the process's idle CPU rate, the
// devnet's polling, when the devnet runs in this process: the figure a loaded machine bends least).
// It covers the upstream HTTP on loopback, parsing, vetting (typed data rebuilt and hashed) of 4 quotes
// per provider, ranking, disclosure and the quotes-table insert, through the hub's in-process entry.
// The hub's database is PGlite in this process, or with DATABASE_URL set a schema of its own on that
// PostgreSQL (made and dropped as bench/status.ts does), so the round's CPU can be read without PGlite's
// WebAssembly. The devnet runs in a child process (bench/quotes-devnet.ts) unless BENCH_DEVNET=in-process.

import { AsyncLocalStorage } from "node:async_hooks";
import { fork } from "node:child_process";
import { subscribe } from "node:diagnostics_channel";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { type Catalog, type CatalogChain, type HubAnswer, hubHeaders } from "@hub/contract";
import { createDevnet } from "@hub/devnet-app";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { createTestDatabases, type SqlClient, type SqlParam } from "@hub/store";
import { pino } from "pino";
import { request } from "undici";
import { laneTable } from "../apps/hub/src/lanes/lane-table.js";
import { buildOifQuoteRequest } from "../apps/hub/src/providers/oif-aggregator/build-oif-quote-request.js";
import { resolveQuoteRoute } from "../apps/hub/src/quotes/resolve-quote-route.js";
import type { ProviderConfigInput } from "../apps/hub/src/providers/index.js";
import { profiled } from "./cpu-profile.js";
import { measureFloorRound } from "./quotes-floor.js";
import { measureHttpFloor } from "./quotes-http-floor.js";

const PROVIDER_DELAYS_MS = [10, 25];
/** The level the goals are set at; the floor round runs as many rounds, as many in flight. */
const LEVEL_64 = { concurrency: 64, rounds: 960 };
const LEVELS = [{ concurrency: 1, rounds: 100 }, { concurrency: 16, rounds: 320 }, LEVEL_64];
/** The memory goal: RSS after 10,000 quotes and a GC at most this many times RSS after the first 1,000 and a GC. */
const MEMORY_RATIO_AT_MOST = 1.1;
const GATEWAY_SECRET = "bench-gateway-secret-0123456789abcdef";
const HELD_HEADER = "x-bench-held-ms";
const SUCCESS_HEAD = Buffer.from('{"success":true,');

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

/**
 * The providers' real hold per round: each upstream call made inside a round (the hub's upstream client
 * publishes its start in the caller's async context, `hub:upstream:request`) is tied to that round, and
 * its answer's `x-bench-held-ms` (`hub:upstream:answer-head`) raises the round's longest hold. A call
 * published in no round's context is not counted: `calls` tells how many of the round's calls were. (With
 * undici's pool, a call that waited for a free connection was published from another round's context.)
 */
function providerHolds() {
  const round = new AsyncLocalStorage<{ heldMs: number; calls: number }>();
  const roundOf = new WeakMap<object, { heldMs: number; calls: number }>();
  subscribe("hub:upstream:request", (message) => {
    const current = round.getStore();
    if (current) roundOf.set((message as { request: object }).request, current);
  });
  subscribe("hub:upstream:answer-head", (message) => {
    const { request, response } = message as { request: object; response: { headers: Buffer[] } };
    const current = roundOf.get(request);
    if (!current) return;
    for (let i = 0; i < response.headers.length; i += 2) {
      const name = response.headers[i]!;
      if (name.length === HELD_HEADER.length && name.toString("latin1").toLowerCase() === HELD_HEADER) {
        current.heldMs = Math.max(current.heldMs, Number(response.headers[i + 1]!.toString("latin1")));
        current.calls += 1;
      }
    }
  });
  /** Runs `work` as one round; `heldMs` and `calls` are its counted calls' longest hold and number. */
  return <T>(work: () => Promise<T>) => {
    const current = { heldMs: 0, calls: 0 };
    return round.run(current, work).then((value) => ({ value, ...current }));
  };
}

/**
 * The hub's SQL client, counting its quotes-table inserts (statements and rows, 15 parameters a row): how
 * the rounds' rows were grouped, beside the floor round's one statement per 64 rows.
 */
function countingQuoteInserts(sql: SqlClient, count: { statements: number; rows: number }): SqlClient {
  const counted = (text: string, params: readonly unknown[] | undefined) => {
    if (!/^INSERT\s+INTO\s+quotes\b/.test(text)) return;
    count.statements += 1;
    count.rows += (params?.length ?? 0) / 15;
  };
  return new Proxy(sql, {
    get(target, key) {
      if (key === "run") {
        return (name: string, text: string, params: readonly (string | null)[]) => {
          counted(text, params);
          return target.run(name, text, params);
        };
      }
      if (key === "query") {
        return (text: string, params?: readonly SqlParam[]) => {
          counted(text, params);
          return target.query(text, params);
        };
      }
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);

/**
 * RSS, the JavaScript heap, array buffers and PGlite's WebAssembly memory (its size) in MiB, after a
 * last-resort GC and a second's rest: a plain GC leaves the free pages V8 keeps in RSS until its memory
 * reducer returns them, after some seconds of idling (docs/performance.md, "Memory").
 */
async function settledMemoryMb(
  sql: SqlClient,
): Promise<{ rss: number; heapUsed: number; arrayBuffers: number; wasm?: number }> {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as (options: object) => void)({
    type: "major",
    execution: "sync",
    flavor: "last-resort",
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const usage = process.memoryUsage();
  const wasmBytes = sql.wasmMemoryBytes?.();
  return {
    rss: mb(usage.rss),
    heapUsed: mb(usage.heapUsed),
    arrayBuffers: mb(usage.arrayBuffers),
    ...(wasmBytes === undefined ? {} : { wasm: mb(wasmBytes) }),
  };
}

/** The figures per concurrency level; with `memoryRounds`, only the memory before and after that many quotes. */
export async function run(options: { memoryRounds?: number } = {}): Promise<object> {
  const devnet = await startBenchDevnet();
  const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
  const db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  const answers = new Map<string, string>();
  const providers = await startCannedProviders(PROVIDER_DELAYS_MS);
  // Long enough that a loaded machine shows up as overhead, not as refusals.
  const providerTimeoutMs = 14_000;
  const providerConfigs: ProviderConfigInput[] = providers.urls.map((url, i) => ({
    id: `p${i}`,
    kind: "oif-aggregator",
    dialect: "oif-aggregator",
    baseUrl: url,
    connections: 128,
    timeoutMs: providerTimeoutMs,
  }));
  const quoteInserts = { statements: 0, rows: 0 };
  const hub = createTestHubApp({
    // The benchmark measures the round, not the limiters: on a fast machine 64 concurrent rounds pass the
    // per-IP limiter's 1,000 a second (the memory batches were refused with EMC0005).
    config: {
      gatewayCredential: GATEWAY_SECRET,
      organizationBucket: { ratePerSecond: 1e6, burst: 1e6 },
      perIpBucket: { ratePerSecond: 1e6, burst: 1e6 },
    },
    catalog: devnet.catalog,
    logger: pino({ level: process.env.BENCH_LOG ?? "silent" }, pino.destination(2)),
    replicaId: "bench",
    sql: countingQuoteInserts(db.sql, quoteInserts),
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
    const slowest = Math.max(...PROVIDER_DELAYS_MS);
    const upstreamCalls = providers.urls.length * route.lanes.length;
    let unattributedRounds = 0;
    /** A success answer's bytes: what the HTTP floor's incoming POST answers. */
    let answerBytes: Buffer | undefined;
    const asRound = providerHolds();
    /** The round's answer time and its slowest provider's real hold, or undefined when refused. */
    const quoteOnce = async (): Promise<{ elapsed: number; heldMs: number } | undefined> => {
      const started = performance.now();
      const {
        value: answer,
        heldMs,
        calls,
      } = await asRound<HubAnswer>(() =>
        hub.handle({
          method: "POST",
          url: "/v1/quote",
          headers,
          body: payload,
        }),
      );
      const elapsed = performance.now() - started;
      // A success envelope starts with these bytes (apps/hub/src/http/answer.ts); only a refusal is
      // parsed, so the benchmark's own JSON.parse of every answer is not counted as the hub's CPU.
      if (answer.body.subarray(0, SUCCESS_HEAD.length).equals(SUCCESS_HEAD)) {
        answerBytes ??= answer.body;
        // A round whose calls were not all counted takes the nominal delay (the round's hold is unknown).
        if (calls === upstreamCalls) return { elapsed, heldMs };
        unattributedRounds += 1;
        return { elapsed, heldMs: slowest };
      }
      const envelope = JSON.parse(answer.body.toString("utf8")) as { errors?: { error_code: string }[] };
      const code = envelope.errors?.[0]?.error_code ?? "unknown";
      failures[code] = (failures[code] ?? 0) + 1;
      return undefined;
    };

    const results: Record<string, object> = {};
    /** Hub CPU per round and overhead p99 at 64, unrounded, for the ratios. */
    let at64: { cpuMsPerRound: number; overheadP99Ms: number } | undefined;
    await record();
    // One at a time, a round's p50 still falls by about 1 ms between rounds 20 and 150 (JIT): the
    // levels start after 200 rounds, the memory figures after 20 as before.
    const warmUpRounds = options.memoryRounds === undefined ? 200 : 20;
    for (let i = 0; i < warmUpRounds; i += 1) await quoteOnce();
    // The devnet in this process polls its chains: its CPU while no quote runs is taken off each level's.
    const idleStarted = performance.now();
    const idleCpu = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idleUsage = process.cpuUsage(idleCpu);
    const idleCpuMsPerMs = (idleUsage.user + idleUsage.system) / 1000 / (performance.now() - idleStarted);
    /** `rounds` quotes, `concurrency` at a time; the answers are recorded afresh every 1,000 rounds. */
    const quoteMany = async (
      concurrency: number,
      rounds: number,
      samples: number[],
      holds: number[] = [],
    ) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (next < rounds) {
            next += 1;
            if (next % 1000 === 0) await record();
            const answered = await quoteOnce();
            if (answered !== undefined) {
              samples.push(answered.elapsed - answered.heldMs);
              holds.push(answered.heldMs);
            }
          }
        }),
      );
    };
    if (options.memoryRounds !== undefined) {
      // The same batch several times (BENCH_MEMORY_BATCHES, 2 by default): what the first leaves behind
      // and the later ones do not add to is memory filling to a bound (malloc's heap, the pages PGlite's
      // 128 MB of WebAssembly memory has touched), not a leak.
      const batches = Math.max(2, Number(process.env.BENCH_MEMORY_BATCHES ?? 2));
      const idleMb = await settledMemoryMb(db.sql);
      // The goal's anchor: the first 1,000 quotes of the first batch, then a GC, then the batch's rest.
      const anchorRounds = Math.min(1000, options.memoryRounds);
      await quoteMany(64, anchorRounds, []);
      const afterFirst1000AndGcMb = await settledMemoryMb(db.sql);
      const afterEachBatchAndGcMb: Awaited<ReturnType<typeof settledMemoryMb>>[] = [];
      let rssAfterQuotesMb = 0;
      for (let batch = 0; batch < batches; batch += 1) {
        await quoteMany(64, batch === 0 ? options.memoryRounds - anchorRounds : options.memoryRounds, []);
        if (batch === 0) rssAfterQuotesMb = mb(process.memoryUsage().rss);
        afterEachBatchAndGcMb.push(await settledMemoryMb(db.sql));
      }
      const devnetWhere = process.env.BENCH_DEVNET === "in-process" ? "in the process" : "in a child process";
      const rssAfter = afterEachBatchAndGcMb.map((m) => m.rss);
      const [afterQuotesAndGc] = afterEachBatchAndGcMb as [(typeof afterEachBatchAndGcMb)[number]];
      const refused = Object.values(failures).reduce((sum, count) => sum + count, 0);
      if (refused > 0) {
        process.stderr.write(
          `bench memory: ${refused} of ${batches * options.memoryRounds} quotes refused (${Object.keys(failures).join(", ")}): the figures are not those of answered quotes\n`,
        );
      }
      return {
        what: `the hub's process memory idle (after 20 quotes), after the first ${anchorRounds} quotes and after each of ${batches} batches of ${options.memoryRounds} quotes, 64 concurrent (${db.driver}, devnet ${devnetWhere})`,
        loadAverage1m: loadavg()[0],
        idleMb,
        rssAfterQuotesMb,
        afterFirst1000AndGcMb,
        afterQuotesAndGcMb: afterQuotesAndGc,
        afterEachBatchAndGcMb,
        rssGrowthAfterFirstBatchMb: Math.max(...rssAfter.slice(1)) - rssAfter[0]!,
        // RSS after the first batch and a GC against after its first 1,000 quotes and a GC.
        ratio: Number((afterQuotesAndGc.rss / afterFirst1000AndGcMb.rss).toFixed(3)),
        goal: {
          ratioAtMost: MEMORY_RATIO_AT_MOST,
          met: afterQuotesAndGc.rss / afterFirst1000AndGcMb.rss <= MEMORY_RATIO_AT_MOST,
        },
        refusals: failures,
      };
    }
    for (const level of LEVELS) {
      await record();
      // Two rounds per slot first, unmeasured: the providers' pools open the level's connections (kept
      // alive 30 s) here, as a hub under steady load has them, not inside the measured rounds.
      await quoteMany(level.concurrency, level.concurrency * 2, []);
      unattributedRounds = 0;
      quoteInserts.statements = 0;
      quoteInserts.rows = 0;
      const samples: number[] = [];
      const holds: number[] = [];
      const started = performance.now();
      const cpuBefore = process.cpuUsage();
      await profiled(`quotes-${level.concurrency}`, () =>
        quoteMany(level.concurrency, level.rounds, samples, holds),
      );
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const cpuMsPerRound = ((cpu.user + cpu.system) / 1000 - idleCpuMsPerMs * wallMs) / level.rounds;
      // The same rounds' overhead above the nominal delay, as this benchmark measured before.
      const aboveNominal = samples.map((sample, i) => sample + holds[i]! - slowest).sort((a, b) => a - b);
      samples.sort((a, b) => a - b);
      holds.sort((a, b) => a - b);
      if (level === LEVEL_64) at64 = { cpuMsPerRound, overheadP99Ms: percentile(samples, 99) };
      results[String(level.concurrency)] = {
        rounds: level.rounds,
        answered: samples.length,
        overheadP50Ms: round(percentile(samples, 50)),
        overheadP99Ms: round(percentile(samples, 99)),
        overheadMaxMs: round(samples[samples.length - 1]!),
        roundsAgainstNominalDelay: unattributedRounds,
        slowestHoldP50Ms: round(percentile(holds, 50)),
        slowestHoldP99Ms: round(percentile(holds, 99)),
        overheadAboveNominalP50Ms: round(percentile(aboveNominal, 50)),
        overheadAboveNominalP99Ms: round(percentile(aboveNominal, 99)),
        quotesPerSecond: Math.round((samples.length / wallMs) * 1000),
        hubCpuMsPerRound: round(cpuMsPerRound),
        quoteRowsPerInsert: round(quoteInserts.rows / quoteInserts.statements),
        roundsPerHubCpuSecond: Math.round(1000 / cpuMsPerRound),
      };
    }
    if (at64 === undefined) throw new Error("the 64 level did not run");
    // The floor round on the 64 level's recorded answers, as many rounds and as many in flight.
    const floorRound = await measureFloorRound({
      sql: db.sql,
      route,
      payload,
      answers,
      providerIds: providerConfigs.map((provider) => provider.id),
      replicaId: "bench",
      caller: { organization: headers[hubHeaders.organization], subject: headers[hubHeaders.subject] },
      quoteLifetimeMs: 30_000,
      rounds: LEVEL_64.rounds,
      concurrency: LEVEL_64.concurrency,
      idleCpuMsPerMs,
    });
    if (answerBytes === undefined) throw new Error("no round was answered");
    // The round's HTTP on bare transports, on the same providers and answers, as many rounds in flight.
    const httpFloor = await measureHttpFloor({
      route,
      providerUrls: providers.urls,
      providerTimeoutMs,
      payload,
      answer: answerBytes,
      rounds: LEVEL_64.rounds,
      concurrency: LEVEL_64.concurrency,
      idleCpuMsPerMs,
    });
    const floorAndHttp = floorRound.hubCpuMsPerRound + httpFloor.hubCpuMsPerRound;
    const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
    return {
      what: "POST /quote time in the hub minus the longest time a provider really held one of the round's calls (AboveNominal: minus the slowest provider's nominal delay)",
      providerDelaysMs: PROVIDER_DELAYS_MS,
      upstreamCallsPerRound: upstreamCalls,
      quotesVettedPerRound: providers.urls.length * route.lanes.length * 2,
      database: db.driver,
      devnet: process.env.BENCH_DEVNET === "in-process" ? "in the hub's process" : "in a child process",
      refusals: failures,
      loadAverage1m: loadavg()[0],
      idleCpuMsPerSecond: round(idleCpuMsPerMs * 1000),
      byConcurrency: results,
      floorRound: {
        ...floorRound,
        httpFloor: {
          ...httpFloor,
          // The least the goal's ratio can be: the floor and the round's upstream HTTP on bare node:http
          // (Net: on node:net, framing alone).
          floorAndHttpToFloor: ratio(floorAndHttp, floorRound.hubCpuMsPerRound),
          floorAndHttpNetToFloor: ratio(
            floorRound.hubCpuMsPerRound + httpFloor.parts.outgoingNetMs,
            floorRound.hubCpuMsPerRound,
          ),
        },
      },
      ratios: {
        hubCpuAt64ToFloor: ratio(at64.cpuMsPerRound, floorRound.hubCpuMsPerRound),
        hubCpuAt64ToFloorAndHttp: ratio(at64.cpuMsPerRound, floorAndHttp),
        p99At64ToFifoBound: ratio(at64.overheadP99Ms, 64 * at64.cpuMsPerRound),
        goals: { hubCpuAt64ToFloor: "<= 1.5", p99At64ToFifoBound: "<= 1.0" },
      },
    };
  } finally {
    await hub.close();
    providers.close();
    await db.dispose();
    await databases.dispose();
    await devnet.stop();
  }
}
