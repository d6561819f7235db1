// The quote round's parts timed alone, in a loop, on answers recorded from the devnet: what each costs
// in CPU per round (4 upstream answers, 8 quotes). A helper for profiling the round, not a figure of the
// issue: `node --import tsx bench/quotes-parts.ts` (not listed by `npm run bench`, its name has a dash).
// The last figure is a whole POST /quote through the hub's dispatcher, 1 and 64 at a time, with the two
// providers' clients answering the recorded text and the quotes store taking the row as JSON: the round's
// own code without sockets or the database.
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type CatalogChain, canonicalSha256, hubHeaders } from "@hub/contract";
import { createMemoryCounters } from "@hub/counters";
import { createDevnet } from "@hub/devnet-app";
import { pino } from "pino";
import { request } from "undici";
import { createDispatcher } from "../apps/hub/src/http/dispatcher.js";
import { createGatewayCredentialCheck } from "../apps/hub/src/http/gateway-credential-check.js";
import { createHubMetrics } from "../apps/hub/src/http/hub-metrics.js";
import { createOperationRouter } from "../apps/hub/src/http/operation.js";
import { laneTable, type OifLane } from "../apps/hub/src/lanes/lane-table.js";
import { createOrganizationRateLimiter } from "../apps/hub/src/limits/organization-rate-limiter.js";
import { createQuoteAdmission } from "../apps/hub/src/limits/quote-admission.js";
import { createSourceRateLimiter } from "../apps/hub/src/limits/source-rate-limiter.js";
import { createOperationsMetrics } from "../apps/hub/src/operations/operations-metrics.js";
import { buildOifQuoteRequest } from "../apps/hub/src/providers/oif-aggregator/build-oif-quote-request.js";
import { oifCandidate } from "../apps/hub/src/providers/oif-aggregator/oif-candidate.js";
import { createOifQuoteSource } from "../apps/hub/src/providers/oif-aggregator/oif-quote-source.js";
import { vetOifQuote } from "../apps/hub/src/providers/oif-aggregator/vet-oif-quote.js";
import { createQuoteMetrics } from "../apps/hub/src/quotes/quote-metrics.js";
import { resolveQuoteRoute } from "../apps/hub/src/quotes/resolve-quote-route.js";
import { registerCreateQuote } from "../apps/hub/src/routes/create-quote.js";
import { createCatalogService } from "../apps/hub/src/services/catalog-service.js";
import type { HubServices } from "../apps/hub/src/services/hub-services.js";
import { createQuoteService } from "../apps/hub/src/services/quote-service.js";
import type { QuoteStore } from "../apps/hub/src/store/quote-store.js";
import type { OifAggregatorClient } from "../apps/hub/src/providers/oif-aggregator/oif-aggregator-client.js";
import type { OifQuoteRequest } from "../apps/hub/src/providers/oif-aggregator/oif-quote-request.js";
import { devnetProvider } from "../apps/hub/src/providers/index.js";

/** POST /quote through the dispatcher: median CPU µs a round over 5 runs of 4,000, at 1 and 64 at a time. */
async function wholeRoundCpu(
  catalog: Parameters<typeof createCatalogService>[0]["catalog"],
  body: object,
  texts: { lane: OifLane; text: string }[],
  nowMs: number,
): Promise<Record<string, number>> {
  const clock = { now: () => nowMs };
  const logger = pino({ level: "silent" });
  const metrics = createHubMetrics();
  const quoteMetrics = createQuoteMetrics(metrics.registry);
  const operations = createOperationsMetrics(metrics.registry, {
    clock,
    quotesInFlight: () => 0,
    upstreamInFlight: () => 0,
    providerIds: ["p0", "p1"],
  });
  const answerOf = new Map(texts.map(({ lane, text }) => [laneTable[lane].oif.product as string, text]));
  const providers = ["p0", "p1"].map((id) => ({
    provider: devnetProvider("http://127.0.0.1:1", { id, dialect: "oif-aggregator" }),
    // What the real client does besides the socket: the body serialized, the answer parsed, counted.
    async quote(request: OifQuoteRequest) {
      JSON.stringify(request);
      const quotes = (JSON.parse(answerOf.get(request.supportedTypes[0]!)!) as { quotes: unknown[] }).quotes;
      operations.upstreamCall(id, "2xx");
      return { kind: "quotes", quotes, latencyMs: 1 };
    },
  })) as unknown as OifAggregatorClient[];
  const quoteStore = {
    // What the store's row parameters cost: the winner's text as the round hands it over, the template.
    async insert(row: { winner: unknown; winnerJson?: string; template: unknown }) {
      if (row.winnerJson === undefined) JSON.stringify(row.winner);
      JSON.stringify(row.template);
    },
  } as unknown as QuoteStore;
  const router = createOperationRouter();
  registerCreateQuote(router, {
    catalog: createCatalogService({ catalog }),
    quotes: createQuoteService({
      admission: createQuoteAdmission({ limit: 64 }),
      sources: [createOifQuoteSource({ providers, metrics: quoteMetrics, logger, clock })],
      quoteStore,
      metrics: quoteMetrics,
      logger,
      clock,
      replicaId: "bench",
      quoteDeadlineMs: 15_000,
      quoteLifetimeMs: 30_000,
    }),
  } as HubServices);
  const secret = "bench-gateway-secret-0123456789abcdef";
  const dispatcher = createDispatcher({
    router,
    bodyLimitBytes: 16_384,
    checkCredential: createGatewayCredentialCheck(secret),
    sourceLimiter: createSourceRateLimiter({ ratePerSecond: 1e9, burst: 1e9, clock }),
    organizationLimiter: createOrganizationRateLimiter({
      counters: createMemoryCounters({}),
      ratePerSecond: 1e9,
      burst: 1e9,
    }),
    metrics,
    logger,
  });
  const call = {
    method: "POST",
    url: "/v1/quote",
    headers: {
      [hubHeaders.gatewayCredential]: secret,
      [hubHeaders.organization]: "org_bench",
      [hubHeaders.subject]: "bench-user",
      "content-type": "application/json",
    },
    body: Buffer.from(JSON.stringify(body)),
    peerAddress: "in-process",
    cancellation: undefined,
    route: undefined,
  };
  const rounds = async (concurrency: number, count: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next += 1;
          const answer = await dispatcher.dispatch(call);
          if (answer.statusCode !== 200) throw new Error(answer.body.toString("utf8"));
        }
      }),
    );
  };
  const figures: Record<string, number> = {};
  for (const concurrency of [1, 64]) {
    await rounds(concurrency, 1000);
    const runs: number[] = [];
    for (let run = 0; run < 5; run += 1) {
      const cpu = process.cpuUsage();
      await rounds(concurrency, 4000);
      const used = process.cpuUsage(cpu);
      runs.push((used.user + used.system) / 4000);
    }
    figures[`at${concurrency}`] = Math.round(runs.sort((a, b) => a - b)[2]!);
  }
  return figures;
}

const dataDir = await mkdtemp(join(tmpdir(), "bench-quote-parts-"));
const devnet = await createDevnet({ port: 0, rpcPorts: [0, 0], dataDir, logger: pino({ level: "silent" }) });
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
  const texts: { lane: OifLane; text: string }[] = [];
  for (const lane of route.lanes) {
    const upstream = await request(`${devnet.url}/aggregator/api/v1/quotes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(buildOifQuoteRequest(route, lane, { providerTimeoutMs: 5000 })),
    });
    texts.push({ lane: lane as OifLane, text: await upstream.body.text() });
  }
  // A round asks 2 providers per lane.
  const roundTexts = [...texts, ...texts];
  const nowMs = Date.now();
  const parts: Record<string, () => unknown> = {
    "JSON.parse of 4 answers": () => roundTexts.map(({ text }) => JSON.parse(text)),
    "vetOifQuote of 8 quotes": () =>
      roundTexts.map(({ lane, text }) =>
        (JSON.parse(text) as { quotes: unknown[] }).quotes.map((raw) =>
          vetOifQuote(raw, { providerId: "p0", route, askedLane: lane, nowMs }),
        ),
      ),
    "disclose the winner": () => {
      const { lane, text } = roundTexts[0]!;
      const vetted = vetOifQuote((JSON.parse(text) as { quotes: unknown[] }).quotes[0], {
        providerId: "p0",
        route,
        askedLane: lane,
        nowMs,
      });
      if (!vetted.ok) throw new Error(vetted.detail);
      return oifCandidate(vetted.quote, route).disclose({
        quoteRequestId: "qr_x",
        quoteId: "q_x",
        expiresAtMs: nowMs,
      });
    },
    "request fingerprint": () => canonicalSha256(body),
  };
  const results: Record<string, number> = {};
  for (const [name, part] of Object.entries(parts)) {
    for (let i = 0; i < 200; i += 1) part();
    const n = 2000;
    const cpu = process.cpuUsage();
    for (let i = 0; i < n; i += 1) part();
    const used = process.cpuUsage(cpu);
    results[name] = Math.round((used.user + used.system) / n);
  }
  const wholeRound = await wholeRoundCpu(devnet.catalog, body, texts, nowMs);
  console.log(
    JSON.stringify(
      {
        what: "CPU µs per round for each part, alone (the devnet idles in the same process)",
        answerBytes: texts.map(({ text }) => text.length),
        loadAverage1m: loadavg()[0],
        microsecondsPerRound: results,
        wholeRoundMicroseconds: wholeRound,
      },
      null,
      2,
    ),
  );
} finally {
  await devnet.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(0);
