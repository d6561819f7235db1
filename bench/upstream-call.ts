// One upstream quote call's CPU in the hub's process: the quote round's four calls (2 providers x 2
// lanes, under one round deadline) through the hub's provider clients (outbound limiter and metrics as
// the hub wires them) against the quotes benchmark's canned providers in a child process, answering
// devnet quotes recorded once. Prints process CPU per call at each concurrency, with the load average.
// `node --import tsx bench/upstream-call.ts` (not listed by `npm run bench`, its name has a dash).
// BENCH_UPSTREAM_VARIANTS=dirA,dirB (each holding a copy of apps/hub/src/providers) alternates blocks of
// rounds between them in one process, for A/B runs of a change to the upstream code.
import { fork } from "node:child_process";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import type { Catalog, CatalogChain } from "@hub/contract";
import { Registry } from "prom-client";
import { request } from "undici";
import { laneTable } from "../apps/hub/src/lanes/lane-table.js";
import { createOutboundLimiter } from "../apps/hub/src/limits/outbound-limiter.js";
import { createOperationsMetrics } from "../apps/hub/src/operations/operations-metrics.js";
import { buildOifQuoteRequest } from "../apps/hub/src/providers/oif-aggregator/build-oif-quote-request.js";
import { resolveQuoteRoute } from "../apps/hub/src/quotes/resolve-quote-route.js";
import { deadlineSignal } from "../apps/hub/src/upstream/deadline-signal.js";
import type { createProviderClients as CreateProviderClients } from "../apps/hub/src/providers/provider-clients.js";
import { oifAggregatorKind } from "../apps/hub/src/providers/oif-aggregator/oif-aggregator-kind.js";
import { profiled } from "./cpu-profile.js";

const levels = (process.env.BENCH_LEVELS ?? "1,64").split(",").map(Number);
const roundsPerBlock = Number(process.env.BENCH_ROUNDS ?? 400);
const blocks = Number(process.env.BENCH_BLOCKS ?? 6);
const variantDirs = (process.env.BENCH_UPSTREAM_VARIANTS ?? "apps/hub/src/providers").split(",");

function child(script: string, args: string[] = []) {
  const process_ = fork(new URL(script, import.meta.url).pathname, args, { execArgv: ["--import", "tsx"] });
  const first = new Promise<unknown>((done) => process_.once("message", done));
  return { process: process_, first };
}

const devnet = child("./quotes-devnet.ts");
const { url, catalog, user } = (await devnet.first) as { url: string; catalog: Catalog; user: string };
const [origin, destination] = catalog.families.evm as [CatalogChain, CatalogChain];
const usdc = (chain: CatalogChain) => chain.assets.find((a) => a.symbol === "USDC")!.key;
const route = resolveQuoteRoute(catalog, {
  sourceAsset: usdc(origin),
  destinationAsset: usdc(destination),
  amount: "1000000",
  recipient: user,
  sourceAccount: user,
  swapType: "exact-input",
});
const requests = route.lanes.map((lane) => buildOifQuoteRequest(route, lane, { providerTimeoutMs: 5000 }));
const answers: [string, string][] = [];
for (const [i, lane] of route.lanes.entries()) {
  const upstream = await request(`${url}/aggregator/api/v1/quotes`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(requests[i]),
  });
  answers.push([laneTable[lane].oif.product, await upstream.body.text()]);
}
devnet.process.disconnect();

const providers = child("./quotes-providers.ts", ["0", "0"]);
const { urls } = (await providers.first) as { urls: string[] };
const recorded = new Promise((done) => providers.process.once("message", done));
providers.process.send({ answers });
await recorded;

const variants = await Promise.all(
  variantDirs.map(async (dir) => {
    const module = (await import(resolve(dir, "provider-clients.ts"))) as {
      createProviderClients: typeof CreateProviderClients;
    };
    const providerIds = urls.map((_, i) => `p${i}`);
    const operations = createOperationsMetrics(new Registry(), {
      clock: { now: () => Date.now() } as never,
      quotesInFlight: () => 0,
      upstreamInFlight: () => 0,
      providerIds,
    });
    const clients = module.createProviderClients(
      urls.map((baseUrl, i) => ({
        id: providerIds[i]!,
        kind: "oif-aggregator" as const,
        dialect: "oif-aggregator" as const,
        baseUrl,
        connections: 128,
        timeoutMs: 14_000,
      })),
      {
        outbound: createOutboundLimiter({ maxConcurrentPerProvider: 1024 }),
        observe: (providerId, result) => operations.upstreamCall(providerId, result),
      },
    );
    return { dir, clients, cpuUs: new Map<number, number[]>() };
  }),
);

let failures = 0;
async function round(clients: (typeof variants)[number]["clients"]) {
  const deadline = deadlineSignal(undefined, 10_000);
  try {
    const outcomes = await Promise.all(
      clients
        .enabledOf(oifAggregatorKind)
        .flatMap((client) => requests.map((r) => client.quote(r, deadline.signal))),
    );
    for (const outcome of outcomes) if (outcome.kind !== "quotes") failures += 1;
  } finally {
    deadline.dispose();
  }
}

async function block(clients: (typeof variants)[number]["clients"], concurrency: number, rounds: number) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < rounds) {
        next += 1;
        await round(clients);
      }
    }),
  );
}

const callsPerRound = urls.length * requests.length;
for (const { clients } of variants) await block(clients, 16, Number(process.env.BENCH_WARMUP ?? 1000));
const loadBefore = loadavg();
for (const concurrency of levels) {
  for (const { clients } of variants) await block(clients, concurrency, roundsPerBlock);
  await profiled(`upstream-call-${concurrency}`, async () => {
    for (let b = 0; b < blocks; b += 1) {
      for (const variant of b % 2 === 0 ? variants : [...variants].reverse()) {
        const started = process.cpuUsage();
        await block(variant.clients, concurrency, roundsPerBlock);
        const used = process.cpuUsage(started);
        const perCall = (used.user + used.system) / (roundsPerBlock * callsPerRound);
        const list = variant.cpuUs.get(concurrency) ?? [];
        list.push(Math.round(perCall * 10) / 10);
        variant.cpuUs.set(concurrency, list);
      }
    }
  });
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(
  JSON.stringify({
    answerBytes: answers.map(([, body]) => body.length),
    roundsPerBlock,
    callsPerRound,
    failures,
    loadAverage: { before: loadBefore, after: loadavg() },
    variants: variants.map(({ dir, cpuUs }) => ({
      dir,
      cpuUsPerCall: Object.fromEntries(
        [...cpuUs].map(([level, values]) => [level, { median: median(values), blocks: values }]),
      ),
    })),
  }),
);
for (const { clients } of variants) await clients.close();
providers.process.disconnect();
