import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { createAdjustableClock } from "@hub/clock";
import { type SolanaDevnet, startSolanaDevnet } from "@hub/devnet-app";
import { createChainFactsStore, type HubApp, solanaReconcilerChainsFromManifest } from "@hub/hub-app";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import { type MetricsListener, startMetricsListener } from "../src/start-metrics-listener.js";

interface Report {
  status: string;
  notReady: string[];
  degraded: string[];
  checks: { name: string; ready: boolean; detail?: string }[];
}

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const logger = pino({ level: "silent" });
// Moved by hand to let the Solana chain's slot run ahead of the reconciler.
const solanaClock = createAdjustableClock();
const OTHER_REPLICA = { name: "reconciler", holder: "rec_another_replica" };

let db: TestDatabase;
let solana: SolanaDevnet;
let solanaStopped = false;
const hubs: HubApp[] = [];
const listeners: MetricsListener[] = [];

before(async () => {
  db = await databases.open(process.env.DATABASE_URL ? "postgres" : "pglite");
  solana = await startSolanaDevnet({
    rpcPort: 0,
    clock: solanaClock,
    pollIntervalMs: 3_600_000,
    evmChains: [],
    logger,
  });
});
after(async () => {
  for (const listener of listeners) await listener.stop();
  for (const hub of hubs) await hub.close();
  if (!solanaStopped) await solana.stop();
  await db.dispose();
  await databases.dispose();
});

/** A hub replica whose reconciler indexes the Solana stand-in once at start (then not for an hour), behind an operator listener. */
async function replica(replicaId: string): Promise<string> {
  const hub = createTestHubApp({
    sql: db.sql,
    replicaId,
    reconciler: {
      chains: [],
      solanaChains: solanaReconcilerChainsFromManifest({ solana: solana.manifest }),
      pollIntervalMs: 3_600_000,
    },
    readiness: { maxLagSlots: 150 },
  });
  hubs.push(hub);
  const listener = await startMetricsListener({
    registries: [hub.metrics],
    readiness: () => hub.readiness.report(),
    port: 0,
  });
  listeners.push(listener);
  return listener.url.replace(/\/metrics$/, "/readyz");
}

async function readyz(url: string): Promise<{ status: number; body: Report }> {
  const answer = await fetch(url);
  return { status: answer.status, body: (await answer.json()) as Report };
}

function check(report: Report, name: string) {
  const found = report.checks.find((entry) => entry.name === name);
  assert.ok(found, `${name} in ${report.checks.map((entry) => entry.name).join(", ")}`);
  return found;
}

test("/readyz on the operator listener reports the Solana chain's RPC and the reconciler's slot lag, degraded but serving", async () => {
  const domain = solana.manifest.chainDomain;
  const chainCheck = `chain:${domain}`;
  const reconcilerCheck = `reconciler:${domain}`;

  // Another replica leads and has indexed nothing yet: this replica's reconciler follows.
  assert.equal(
    await createChainFactsStore(db.sql).acquireReconcilerLease({ ...OTHER_REPLICA, ttlMs: 3_600_000 }),
    true,
  );
  const follower = await replica("follower");
  const unindexed = await pollUntil("the follower's first report", async () => {
    const answer = await readyz(follower);
    return answer.body.checks.length > 0 ? answer : undefined;
  });
  // A chain never drains the replica: it is named as degraded, and the process still serves.
  assert.equal(unindexed.status, 200);
  assert.equal(unindexed.body.status, "degraded");
  assert.deepEqual(unindexed.body.notReady, []);
  assert.deepEqual(unindexed.body.degraded, [reconcilerCheck]);
  assert.equal(check(unindexed.body, chainCheck).ready, true);
  assert.equal(check(unindexed.body, reconcilerCheck).detail, `the reconciler has not indexed ${domain} yet`);

  // The other replica goes; a new leader indexes, and the follower reads its watermark from the database.
  await createChainFactsStore(db.sql).releaseReconcilerLease(OTHER_REPLICA);
  const leader = await replica("leader");
  for (const url of [leader, follower]) {
    const ready = await pollUntil(`${url} answers 200`, async () => {
      const answer = await readyz(url);
      return answer.body.status === "ready" ? answer : undefined;
    });
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body.notReady, []);
    assert.deepEqual(ready.body.degraded, []);
    assert.equal(check(ready.body, chainCheck).ready, true);
    assert.equal(check(ready.body, reconcilerCheck).ready, true);
  }

  // The chain runs 200 slots (400 ms each) past the watermark while no reconciler ticks.
  solanaClock.advance(200 * 400);
  const behind = await pollUntil("the leader's report names the lag", async () => {
    const answer = await readyz(leader);
    return answer.body.status === "degraded" ? answer : undefined;
  });
  assert.equal(behind.status, 200);
  assert.deepEqual(behind.body.notReady, []);
  assert.deepEqual(behind.body.degraded, [reconcilerCheck]);
  assert.equal(check(behind.body, chainCheck).ready, true);
  assert.match(
    check(behind.body, reconcilerCheck).detail ?? "",
    /^the reconciler is \d+ slots behind the slot \d+ \(bound 150\)$/,
  );

  // The Solana RPC stops answering: both of its checks name it, and the process still serves.
  await solana.stop();
  solanaStopped = true;
  const unreachable = await pollUntil("the leader's report names the chain", async () => {
    const answer = await readyz(leader);
    return answer.body.degraded.includes(chainCheck) ? answer : undefined;
  });
  assert.equal(unreachable.status, 200);
  assert.deepEqual(unreachable.body.notReady, []);
  assert.deepEqual(unreachable.body.degraded, [chainCheck, reconcilerCheck]);
});
