import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createRpcFaultProxy, type RpcFaultProxy } from "@hub/devnet-app";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import type { HubApp } from "../src/create-hub-app.js";
import { getChainFacts } from "../src/reconciler/index.js";
import { createTestHubApp } from "./hub-fixture.js";
import { type OrderDevnet, rpc, startOrderDevnet } from "./reconciler-devnet.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });

let devnet: OrderDevnet;
let db: TestDatabase;
const proxies: RpcFaultProxy[] = [];
let hub: HubApp | undefined;

before(async () => {
  devnet = await startOrderDevnet();
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
});
after(async () => {
  await hub?.close();
  for (const proxy of proxies) await proxy.close();
  await devnet?.stop();
  await db?.dispose();
  await databases.dispose();
});

function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.indexOf("}"));
    if (wanted.every((pair) => inside.split(",").includes(pair)))
      return Number(line.slice(line.indexOf("}") + 2));
  }
  return undefined;
}

test("behind a faulty RPC (429 with Retry-After, range refusals, slow answers, resets, the first of two URLs down) the reconciler indexes, ranges shrink, /readyz tells the truth and the log stays quiet", async () => {
  const { origin, destination } = devnet;
  // A long history past the deployment, so that the first ranges are wider than the providers allow.
  await rpc(origin.rpcUrl, "anvil_mine", ["0x40"]);
  await rpc(destination.rpcUrl, "anvil_mine", ["0x40"]);

  const dead = await createRpcFaultProxy({ target: origin.rpcUrl, faults: { down: true } });
  const originProxy = await createRpcFaultProxy({
    target: origin.rpcUrl,
    faults: {
      rateLimit: { retryAfterSeconds: 1, count: 2 },
      maxLogRange: 10,
      rangeStyle: "alchemy",
      delayMs: 20,
      resetEvery: 9,
    },
  });
  const destinationProxy = await createRpcFaultProxy({
    target: destination.rpcUrl,
    faults: { maxLogRange: 7, rangeStyle: "infura", delayMs: 20 },
  });
  proxies.push(dead, originProxy, destinationProxy);

  const logLines: string[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => logLines.push(line) });
  const chains = devnet.reconcilerChains().map((chain) =>
    chain.chainDomain === origin.chainDomain
      ? // The preferred URL is down: every call goes on to the second.
        { ...chain, rpcUrl: dead.url, rpcUrls: [`${dead.url}?key=SECRET`, originProxy.url] }
      : { ...chain, rpcUrl: destinationProxy.url, rpcUrls: [destinationProxy.url] },
  );
  hub = createTestHubApp({
    sql: db.sql,
    logger,
    reconciler: {
      chains,
      pollIntervalMs: 100,
      rpc: { requestTimeoutMs: 2000, growAfter: 2, transport: { backoffMs: 20, maxBackoffMs: 1500 } },
    },
    readiness: { chainStaleAfterMs: 2000 },
  });

  const opened = await devnet.newOrder();
  await devnet.open(opened);
  const fill = await devnet.fill(opened);
  await devnet.proveAndFinalise(opened, fill.txHash);
  const settled = await pollUntil(
    "the order reads SETTLED, with its fill, through the faulty RPCs",
    async () => {
      const view = await getChainFacts(db.sql, opened.orderId);
      return view?.status === "SETTLED" && view.fills.length > 0 ? view : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100 },
  );
  assert.equal(settled.fills[0]?.txHash, fill.txHash);

  // Every fault was met and got through.
  assert.equal(originProxy.stats().faults["rate-limited"], 2);
  assert.ok((originProxy.stats().faults.range ?? 0) > 0, JSON.stringify(originProxy.stats()));
  assert.ok((originProxy.stats().faults.reset ?? 0) > 0, JSON.stringify(originProxy.stats()));
  assert.ok((destinationProxy.stats().faults.range ?? 0) > 0, JSON.stringify(destinationProxy.stats()));
  assert.ok((dead.stats().faults.reset ?? 0) > 0);

  const metrics = await hub.metrics.metrics();
  const deadHost = new URL(dead.url).host;
  // Ranges shrank to what each provider allows (Alchemy's hint taken as is; halving for Infura's).
  // The hint's 10 blocks, or twice that when it was growing back when scraped.
  assert.ok(
    [10, 20].includes(sample(metrics, "hub_chain_log_range_blocks", { chain: origin.chainDomain }) ?? 0),
  );
  // Halved below Infura-style refusals of more than 7 blocks: at most 7, or twice a working size growing back.
  const destinationRange =
    sample(metrics, "hub_chain_log_range_blocks", { chain: destination.chainDomain }) ?? 99;
  assert.ok(destinationRange <= 14, `destination range ${destinationRange}`);
  assert.ok((sample(metrics, "hub_chain_log_range_refusals_total", { chain: origin.chainDomain }) ?? 0) >= 1);
  assert.ok(
    (sample(metrics, "hub_chain_rpc_errors_total", {
      chain: origin.chainDomain,
      host: deadHost,
      kind: "transport",
    }) ?? 0) >= 1,
  );
  assert.ok(
    (sample(metrics, "hub_chain_rpc_errors_total", {
      chain: origin.chainDomain,
      host: new URL(originProxy.url).host,
      kind: "rate-limited",
    }) ?? 0) === 2,
  );
  // A key in a URL is never in a label, and never in the log.
  assert.doesNotMatch(metrics, /SECRET/);
  assert.ok(!logLines.some((line) => line.includes("SECRET")));

  // With its first URL down and its second answering, the origin reads ready; nothing is degraded.
  // The resets stop first: they were met above, and the readiness probe's own call (one, no retry)
  // could otherwise draw one and read the origin as failing.
  const { resetEvery: _met, ...withoutResets } = originProxy.faults();
  originProxy.setFaults(withoutResets);
  const ready = await pollUntil("the report is ready", async () => {
    const report = await hub!.readiness.report();
    return report.status === "ready" ? report : undefined;
  });
  assert.deepEqual(ready.degraded, []);
  // Faults the transport rode out logged nothing: no chain ever failed a pass.
  assert.deepEqual(
    logLines.filter((line) => line.includes('"component":"reconciler"') && /"level":(40|50)/.test(line)),
    [],
  );

  // The destination's node goes down: the chain is failing, then stale, named as degraded; the API serves.
  destinationProxy.setFaults({ down: true });
  const degraded = await pollUntil(
    "the report names the stale destination",
    async () => {
      const report = await hub!.readiness.report();
      const check = report.checks.find((entry) => entry.name === `reconciler:${destination.chainDomain}`);
      return check?.detail?.includes("successfully") ? report : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200 },
  );
  assert.equal(degraded.status, "degraded");
  const chainDetail = degraded.checks.find(
    (check) => check.name === `chain:${destination.chainDomain}`,
  )?.detail;
  assert.match(chainDetail ?? "", /^no RPC URL of the chain answers \(127\.0\.0\.1:\d+: /);
  assert.deepEqual(degraded.notReady, []);
  assert.deepEqual(
    degraded.degraded,
    [`chain:${destination.chainDomain}`, `reconciler:${destination.chainDomain}`],
    JSON.stringify({ checks: degraded.checks, log: logLines.filter((line) => line.includes("reconciler")) }),
  );
  const staleDetail = degraded.checks.find(
    (check) => check.name === `reconciler:${destination.chainDomain}`,
  )?.detail;
  assert.match(staleDetail ?? "", /has not indexed eip155:\d+ successfully for \d+ s \(bound 2 s\)/);
  assert.equal((await hub.app.inject({ method: "GET", url: "/readyz" })).statusCode, 200);
  const downMetrics = await hub.metrics.metrics();
  assert.equal(sample(downMetrics, "hub_reconciler_chain_failing", { chain: destination.chainDomain }), 1);
  assert.equal(sample(downMetrics, "hub_reconciler_chain_stale", { chain: destination.chainDomain }), 1);
  assert.equal(sample(downMetrics, "hub_reconciler_chain_stale", { chain: origin.chainDomain }), 0);
  assert.ok(
    (sample(downMetrics, "hub_reconciler_lag_seconds", { chain: destination.chainDomain }) ?? 0) >= 2,
  );

  // The node comes back: one line said failing, one says recovered, however many passes failed between.
  destinationProxy.setFaults({});
  await pollUntil(
    "the destination recovers",
    async () => {
      const report = await hub!.readiness.report();
      return report.status === "ready" ? report : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200 },
  );
  const about = (text: string) =>
    logLines.filter((line) => line.includes(text) && line.includes(destination.chainDomain)).length;
  assert.equal(about("reconciler chain failing"), 1);
  assert.equal(about("reconciler chain recovered"), 1);
  const reconcilerLines = logLines.filter((line) => line.includes('"component":"reconciler"'));
  assert.ok(reconcilerLines.length <= 3, reconcilerLines.join("\n"));

  // The provider lifts its bound: over new history the range grows back, doubling while answered.
  originProxy.setFaults({});
  const before =
    sample(await hub.metrics.metrics(), "hub_chain_log_range_blocks", { chain: origin.chainDomain }) ?? 0;
  for (let round = 0; round < 4; round++) {
    await rpc(origin.rpcUrl, "anvil_mine", ["0xc8"]);
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
  await pollUntil(
    "the origin's range grows back",
    async () => {
      const text = await hub!.metrics.metrics();
      return (sample(text, "hub_chain_log_range_blocks", { chain: origin.chainDomain }) ?? 0) >= before * 4
        ? text
        : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 200 },
  );
});
