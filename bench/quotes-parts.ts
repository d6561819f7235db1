// The quote round's parts timed alone, in a loop, on answers recorded from the devnet: what each costs
// in CPU per round (4 upstream answers, 8 quotes). A helper for profiling the round, not a figure of the
// issue: `node --import tsx bench/quotes-parts.ts` (not listed by `npm run bench`, its name has a dash).
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { type CatalogChain, canonicalSha256 } from "@hub/contract";
import { createDevnet } from "@hub/devnet-app";
import { pino } from "pino";
import { request } from "undici";
import type { OifLane } from "../apps/hub/src/lanes/lane-table.js";
import { buildOifQuoteRequest } from "../apps/hub/src/quotes/oif/build-oif-quote-request.js";
import { oifCandidate } from "../apps/hub/src/quotes/oif/oif-candidate.js";
import { vetOifQuote } from "../apps/hub/src/quotes/oif/vet-oif-quote.js";
import { resolveQuoteRoute } from "../apps/hub/src/quotes/resolve-quote-route.js";

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
  console.log(
    JSON.stringify(
      {
        what: "CPU µs per round for each part, alone (the devnet idles in the same process)",
        answerBytes: texts.map(({ text }) => text.length),
        loadAverage1m: loadavg()[0],
        microsecondsPerRound: results,
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
