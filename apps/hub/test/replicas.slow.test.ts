import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { type OpenForAck, replicaOfOpaqueId } from "@hub/contract";
import { createPostgresClient, createTestDatabases, type PreparedDataDir, type SqlClient } from "@hub/store";
import {
  nginxMissing,
  type PrivateServer,
  pollUntil,
  type StartedNginx,
  startNginx,
  startPrivateRedis,
} from "@hub/test-support";
import {
  callApi,
  codeOf,
  createOrgWithKey,
  type DevFile,
  endHubProcess,
  type HubProcess,
  hubAdmin,
  startHubProcess,
} from "./hub-process.js";
import { readReconcilerLease } from "./store/chain-facts-rows.js";
import { countSubmissions, readSubmission } from "./store/submission-rows.js";
import {
  assertForwardedAtMostOnce,
  devnetUpstreamEnv,
  type Post,
  quoteSignedOrders,
  repostEvery,
  submitAndKill,
} from "./submission-load.js";
import { startUpstreamProxy, type UpstreamProxy } from "./submission-upstream-proxy.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

// Two `hub start` processes (gateway and hub each) on one PostgreSQL schema and one Redis, behind
// nginx load-balancing over both gateways, as docs/operations.md describes.

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
after(() => databases.dispose());

const SUBMISSIONS = 50;
/** The reconciler's defaults: its lease lives 15 s, a replica that does not lead tries every second. */
const LEASE_TTL_MS = 15_000;
const RECONCILER_POLL_MS = 1_000;
const skip =
  nginxMissing() ||
  (process.env.DATABASE_URL ? false : "DATABASE_URL is not set: two replicas need PostgreSQL");

type ReplicaId = "a" | "b";

interface Replica {
  env: NodeJS.ProcessEnv;
  process: HubProcess;
  dev: DevFile;
}

/** A bad key in the right format: unknown, so the lockout counts it. */
const unknownKey = (i: number) => `svc_sk_${String(i).padStart(43, "Z")}`;

describe("two replicas on one PostgreSQL and one Redis behind nginx", { skip }, () => {
  let devnet: HubTestDevnet;
  let upstream: UpstreamProxy;
  let target: PreparedDataDir;
  let redis: PrivateServer;
  let nginx: StartedNginx;
  let sql: SqlClient;
  const replicas = {} as Record<ReplicaId, Replica>;
  let org: { orgId: string; key: string; keyId: string };

  before(async () => {
    devnet = await startHubTestDevnet();
    upstream = await startUpstreamProxy(`${devnet.url}/aggregator`);
    target = await databases.prepareDataDir("postgres");
    redis = await startPrivateRedis();
    sql = createPostgresClient({ connectionString: target.databaseUrl!, maxConnections: 2 });
    const shared: NodeJS.ProcessEnv = {
      ...devnetUpstreamEnv(devnet, upstream.url, target.dataDir),
      HUB_CHAIN_RPC_URLS: devnet.manifest.chains.map((c) => `${c.chainDomain}=${c.rpcUrl}`).join(","),
      DATABASE_URL: target.databaseUrl,
      REDIS_URL: redis.url,
      GATEWAY_TRUSTED_PROXIES: "127.0.0.1/32",
      // A slow refill makes the shared buckets' counts exact: the project pool is a hundredth of the
      // organization's hub bucket, 10 calls and 0.01 a second back (every call costing 1); the hub's
      // burst covers the load.
      HUB_TENANT_RPS: "1",
      HUB_TENANT_BURST: "1000",
      GATEWAY_PROJECT_SHARE: "0.01",
      GATEWAY_PROJECT_QUOTE_COST: "1",
      // The kill test reads every acked order's status back to back all through its load: on a fast
      // machine that is past the default organization pool (100 a second, 200 at once), and a spent
      // pool answers EPX0080, which is not what these tests test.
      GATEWAY_ORGANIZATION_RPS: "100000",
      GATEWAY_ORGANIZATION_BURST: "100000",
    };
    const started = (["a", "b"] as const).map((id) => {
      const dataDir = join(target.dataDir, id);
      mkdirSync(dataDir, { recursive: true });
      const env = { ...shared, HUB_DATA_DIR: dataDir, HUB_REPLICA_ID: id };
      return { id, env, process: startHubProcess(env) };
    });
    for (const { id, env, process } of started) replicas[id] = { env, process, dev: await process.ready };
    nginx = await startNginx(started.map(({ id }) => new URL(replicas[id].dev.baseUrl).host));
    org = await createOrgWithKey(replicas.a.env, "replicas");
  });

  after(async () => {
    for (const replica of Object.values(replicas)) await endHubProcess(replica.process, "SIGKILL");
    await nginx?.close();
    await sql?.close();
    await redis?.close();
    await upstream?.close();
    await devnet?.stop();
    await target?.dispose();
  });

  const base = (where: ReplicaId | "nginx") =>
    where === "nginx" ? `${nginx.origin}/v1` : replicas[where].dev.baseUrl;
  const withKey = (key: string, extra: Record<string, string> = {}) => ({
    "x-api-key": key,
    "x-service-subject": "replica-user",
    ...extra,
  });

  test("a caller locked out on one replica is locked out on the other, and through nginx", async () => {
    const attacker = { "x-forwarded-for": "203.0.113.41" };
    for (let i = 0; i < 20; i++) {
      const refused = await callApi(base("a"), "GET", "/catalog", {
        headers: { ...attacker, "x-api-key": unknownKey(i) },
      });
      assert.equal(codeOf(refused), "EPX0002");
    }
    for (const where of ["b", "a", "nginx"] as const) {
      const locked = await callApi(base(where), "GET", "/catalog", { headers: withKey(org.key, attacker) });
      assert.equal(codeOf(locked), "EPX0081", `${where} refuses the locked-out caller`);
      assert.equal(locked.status, 429);
    }
    const neighbour = await callApi(base("b"), "GET", "/catalog", {
      headers: withKey(org.key, { "x-forwarded-for": "203.0.113.42" }),
    });
    assert.equal(codeOf(neighbour), "ok", "another caller is not locked out");
  });

  test("the buckets are shared: one project pool of 10 spent across both replicas", async () => {
    const { project } = await hubAdmin(replicas.a.env, "project", "create", "--org", org.orgId);
    const remaining: number[] = [];
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const answer = await callApi(base(i % 2 === 0 ? "a" : "b"), "GET", "/catalog", {
        headers: { "x-project-id": project.projectId, "x-forwarded-for": `198.51.100.${i + 1}` },
      });
      outcomes.push(codeOf(answer));
      remaining.push(Number(answer.headers.get("ratelimit-remaining")));
    }
    // Per replica the pool would admit 10 each; shared, the two replicas admit 10 together.
    assert.deepEqual(outcomes, [...Array(10).fill("ok"), "EPX0080", "EPX0080"]);
    assert.deepEqual(remaining, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
  });

  test("a key revoked on one replica is refused by both within 2 s", async (t) => {
    const { apiKey } = await hubAdmin(replicas.a.env, "key", "create", "--org", org.orgId);
    for (const where of ["a", "b"] as const) {
      assert.equal(
        codeOf(await callApi(base(where), "GET", "/catalog", { headers: withKey(apiKey.key) })),
        "ok",
      );
    }
    // Both replicas use the key all along, so each holds it in its credential cache at the revoke.
    let using = true;
    const use = (async () => {
      while (using) {
        await Promise.all(
          (["a", "b"] as const).map((where) =>
            callApi(base(where), "GET", "/catalog", { headers: withKey(apiKey.key) }),
          ),
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const commandAt = Date.now();
    await hubAdmin(replicas.a.env, "key", "revoke", apiKey.keyId);
    // The revoke committed before the command returned: the bound runs from its return.
    const revokedAt = Date.now();
    const refusedBy = new Map<ReplicaId, number>();
    await pollUntil(
      () => `both replicas refuse the revoked key (so far ${[...refusedBy.keys()].join(", ") || "none"})`,
      async () => {
        for (const where of ["a", "b"] as const) {
          if (refusedBy.has(where)) continue;
          const answer = await callApi(base(where), "GET", "/catalog", { headers: withKey(apiKey.key) });
          if (codeOf(answer) === "EPX0002") refusedBy.set(where, Date.now() - revokedAt);
        }
        return refusedBy.size === 2;
      },
      { timeoutMs: 2_000, intervalMs: 50 },
    );
    using = false;
    await use;
    t.diagnostic(
      `the revoke command took ${revokedAt - commandAt} ms; refused ${JSON.stringify(Object.fromEntries(refusedBy))} ms after it returned`,
    );
  });

  test(`a replica SIGKILLed in the middle of ${SUBMISSIONS} submissions and status reads through nginx loses no ack, forwards no quote twice, and the survivor takes the reconciler lease`, async (t) => {
    const holder = await pollUntil(
      "a replica leads the reconciler",
      async () => (await readReconcilerLease(sql))?.holder,
    );
    const victim = holder.split("_")[1] as ReplicaId;
    assert.ok(victim === "a" || victim === "b", `the lease holder ${holder} names its replica`);
    const survivor: ReplicaId = victim === "a" ? "b" : "a";

    const post: Post = (path, json) =>
      callApi(base("nginx"), "POST", path, { headers: withKey(org.key), json });
    const orders = await quoteSignedOrders(devnet, SUBMISSIONS, post, 2_000_000);
    const quotedBy = new Set(orders.map(({ winner }) => replicaOfOpaqueId(winner.quoteId)));
    assert.deepEqual([...quotedBy].sort(), ["a", "b"], "nginx spread the quotes over both replicas");

    // Every ack a client got, before the kill and from the survivor while the load runs on.
    const acked = new Map<string, OpenForAck>();
    const reads = new Map<string, number>();
    let loading = true;
    // Status reads of the acked orders all along, through nginx.
    const reader = (async () => {
      while (loading) {
        for (const { hubOrderId } of [...acked.values()]) {
          const answer = await callApi(base("nginx"), "GET", `/order/${hubOrderId}/status`, {
            headers: withKey(org.key),
          });
          const code = codeOf(answer);
          reads.set(code, (reads.get(code) ?? 0) + 1);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    let lease: Awaited<ReturnType<typeof readReconcilerLease>>;
    let killedAt = 0;
    const ackedAtKill = await submitAndKill(devnet, orders, post, acked, 10, async () => {
      await endHubProcess(replicas[victim].process, "SIGKILL");
      killedAt = Date.now();
      lease = await readReconcilerLease(sql);
    });
    assert.equal(lease?.holder, holder, "the killed replica held the lease up to its death");
    await new Promise((resolve) => setTimeout(resolve, 500));
    loading = false;
    await reader;
    t.diagnostic(
      `killed replica ${victim} with ${ackedAtKill} of ${SUBMISSIONS} acked, ${acked.size} by the end of the load`,
    );
    t.diagnostic(`status reads through nginx during the load: ${JSON.stringify(Object.fromEntries(reads))}`);
    assert.deepEqual(
      [...reads.keys()].filter((code) => code.startsWith("HTTP")),
      [],
      "every status read got the hub's envelope: nginx passed reads of the dead replica to the survivor",
    );

    // Now every re-post reaches the survivor.
    const codes = await repostEvery(orders, acked, post);
    t.diagnostic(`re-posts after the kill: ${JSON.stringify(codes)}`);

    // Every acked order is still there: read back through the survivor, and one acked row each.
    for (const [quoteId, ack] of acked) {
      const status = await callApi(base(survivor), "GET", `/order/${ack.hubOrderId}/status`, {
        headers: withKey(org.key),
      });
      assert.equal(codeOf(status), "ok", `the survivor reads acked order ${ack.hubOrderId}`);
      assert.equal(await countSubmissions(sql, quoteId), 1);
      assert.equal((await readSubmission(sql, quoteId))?.state, "acked");
    }
    assertForwardedAtMostOnce(upstream);

    // The survivor takes the lease once the victim's expires, at its next tick.
    const taken = await pollUntil(
      "the survivor holds the reconciler lease",
      async () => {
        const row = await readReconcilerLease(sql);
        return row?.holder.startsWith(`rec_${survivor}_`) ? row : undefined;
      },
      { timeoutMs: LEASE_TTL_MS + 10_000, intervalMs: 100 },
    );
    const lateMs = taken.acquiredAt.getTime() - lease!.expiresAt.getTime();
    t.diagnostic(
      `the survivor took the lease ${taken.acquiredAt.getTime() - killedAt} ms after the kill, ${lateMs} ms after the victim's expired`,
    );
    assert.ok(lateMs <= RECONCILER_POLL_MS + 1_000, `the lease moved ${lateMs} ms after it expired`);
  });
});
