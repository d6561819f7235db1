import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  type CatalogChain,
  openForAckSchema,
  type QuoteWinner,
  quoteWinnerSchema,
  replicaOfOpaqueId,
} from "@hub/contract";
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
  type Answer,
  callApi,
  createOrgWithKey,
  type DevFile,
  endHubProcess,
  type HubProcess,
  hubAdmin,
  startHubProcess,
} from "./hub-process.js";
import { readReconcilerLease } from "./store/chain-facts-rows.js";
import { countSubmissions, readSubmission } from "./store/submission-rows.js";
import { signWinner } from "./submission-stack.js";
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

function isEnvelope(answer: Answer): boolean {
  return typeof answer.body === "object" && answer.body !== null && typeof answer.body.success === "boolean";
}

function codeOf(answer: Answer): string {
  if (!isEnvelope(answer)) return `HTTP ${answer.status}`;
  return answer.body.success ? "ok" : answer.body.errors[0].error_code;
}

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
    const providersFile = join(target.dataDir, "providers.json");
    writeFileSync(
      providersFile,
      JSON.stringify([{ id: "devnet", kind: "oif-aggregator", baseUrl: upstream.url, timeoutMs: 8000 }]),
    );
    const shared: NodeJS.ProcessEnv = {
      ...process.env,
      HUB_DEVNET: "0",
      HUB_CATALOG_FILE: devnet.files.catalogFile,
      HUB_PROVIDERS_FILE: providersFile,
      HUB_CHAIN_RPC_URLS: devnet.manifest.chains.map((c) => `${c.chainDomain}=${c.rpcUrl}`).join(","),
      DATABASE_URL: target.databaseUrl,
      REDIS_URL: redis.url,
      GATEWAY_PORT: "0",
      HUB_PORT: "0",
      DASHBOARD_PORT: "0",
      METRICS_PORT: "0",
      GATEWAY_TRUSTED_PROXIES: "127.0.0.1/32",
      // A slow refill makes the shared buckets' counts exact: the project pool is a hundredth of the
      // organization's hub bucket, 10 calls and 0.01 a second back; the hub's burst covers the load.
      HUB_TENANT_RPS: "1",
      HUB_TENANT_BURST: "1000",
      GATEWAY_PROJECT_SHARE: "0.01",
      LOG_LEVEL: "warn",
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
    await hubAdmin(replicas.a.env, "key", "revoke", apiKey.keyId);
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
    t.diagnostic(`refused after ${JSON.stringify(Object.fromEntries(refusedBy))} ms`);
  });

  test(`a replica SIGKILLed in the middle of ${SUBMISSIONS} submissions and status reads through nginx loses no ack, forwards no quote twice, and the survivor takes the reconciler lease`, async (t) => {
    const holder = await pollUntil(
      "a replica leads the reconciler",
      async () => (await readReconcilerLease(sql))?.holder,
    );
    const victim = holder.split("_")[1] as ReplicaId;
    assert.ok(victim === "a" || victim === "b", `the lease holder ${holder} names its replica`);
    const survivor: ReplicaId = victim === "a" ? "b" : "a";

    const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
    const usdc = (chain: CatalogChain) => chain.assets.find((asset) => asset.symbol === "USDC")!.key;
    const orders: { winner: QuoteWinner; body: Record<string, string> }[] = [];
    for (let batch = 0; batch < SUBMISSIONS; batch += 10) {
      await Promise.all(
        Array.from({ length: 10 }, async (_, i) => {
          const user = devnet.manifest.users[(batch + i) % devnet.manifest.users.length]!;
          const quoted = await callApi(base("nginx"), "POST", "/quote", {
            headers: withKey(org.key),
            json: {
              sourceAsset: usdc(origin),
              destinationAsset: usdc(destination),
              amount: String(2_000_000 + batch + i),
              recipient: user.address,
              sourceAccount: user.address,
            },
          });
          assert.equal(quoted.status, 200, JSON.stringify(quoted.body));
          const winner = quoteWinnerSchema.parse(quoted.body.data);
          orders.push({
            winner,
            body: {
              quoteRequestId: winner.quoteRequestId,
              quoteId: winner.quoteId,
              signature: await signWinner(user, winner),
            },
          });
        }),
      );
    }
    const quotedBy = new Set(orders.map(({ winner }) => replicaOfOpaqueId(winner.quoteId)));
    assert.deepEqual([...quotedBy].sort(), ["a", "b"], "nginx spread the quotes over both replicas");

    // Forwards take a while, so the kill lands with some acked and the rest forwarding.
    await devnet.control("POST", "/aggregator/faults", { latencyMs: 400 });
    const acked = new Map<string, { hubOrderId: string }>();
    const reads = new Map<string, number>();
    let loading = true;
    const submissions = orders.map(async ({ winner, body }, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 15));
      try {
        const answer = await callApi(base("nginx"), "POST", "/order/openfor", {
          headers: withKey(org.key),
          json: body,
        });
        if (isEnvelope(answer) && answer.body.success)
          acked.set(winner.quoteId, openForAckSchema.parse(answer.body.data));
      } catch {
        // The connection died with the replica.
      }
    });
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
    await pollUntil("some submissions are acked", () => acked.size >= 10, {
      timeoutMs: 60_000,
      intervalMs: 20,
    });
    await endHubProcess(replicas[victim].process, "SIGKILL");
    const ackedAtKill = acked.size;
    const lease = await readReconcilerLease(sql);
    await Promise.all(submissions);
    await new Promise((resolve) => setTimeout(resolve, 500));
    loading = false;
    await reader;
    await devnet.control("DELETE", "/aggregator/faults");
    // Every ack a client got, before the kill and from the survivor while the load ran on.
    const ackedDuringLoad = new Map(acked);
    assert.ok(ackedAtKill < SUBMISSIONS, "the kill landed before every submission was acked");
    t.diagnostic(
      `killed replica ${victim} with ${ackedAtKill} of ${SUBMISSIONS} acked, ${ackedDuringLoad.size} by the end of the load`,
    );
    t.diagnostic(`status reads through nginx during the load: ${JSON.stringify(Object.fromEntries(reads))}`);
    assert.deepEqual(
      [...reads.keys()].filter((code) => code.startsWith("HTTP")),
      [],
      "every status read got the hub's envelope: nginx passed reads of the dead replica to the survivor",
    );

    // The client's rule for a lost answer: re-post the identical request (now all reach the survivor).
    const codes = new Map<string, number>();
    await Promise.all(
      orders.map(async ({ winner, body }) => {
        const answer = await callApi(base("nginx"), "POST", "/order/openfor", {
          headers: withKey(org.key),
          json: body,
        });
        const outcome = codeOf(answer);
        if (outcome === "ok") {
          const ack = openForAckSchema.parse(answer.body.data);
          const before = ackedDuringLoad.get(winner.quoteId);
          if (before !== undefined)
            assert.deepEqual(ack, before, "an ack given during the load is the ack after it");
        } else {
          assert.ok(!ackedDuringLoad.has(winner.quoteId), `an acked quote answered ${outcome}`);
        }
        codes.set(outcome, (codes.get(outcome) ?? 0) + 1);
      }),
    );
    t.diagnostic(`re-posts after the kill: ${JSON.stringify(Object.fromEntries(codes))}`);
    assert.deepEqual(
      [...codes.keys()].filter((code) => code !== "ok" && code !== "EIN0052"),
      [],
      "every re-post answers the ack or EIN0052",
    );

    // Every acked order is still there: read back through the survivor, and one acked row each.
    for (const [quoteId, ack] of ackedDuringLoad) {
      const status = await callApi(base(survivor), "GET", `/order/${ack.hubOrderId}/status`, {
        headers: withKey(org.key),
      });
      assert.equal(codeOf(status), "ok", `the survivor reads acked order ${ack.hubOrderId}`);
      assert.equal(await countSubmissions(sql, quoteId), 1);
      assert.equal((await readSubmission(sql, quoteId))?.state, "acked");
    }
    for (const [upstreamQuoteId, count] of upstream.forwards) {
      assert.ok(count <= 1, `upstream quote ${upstreamQuoteId} was forwarded ${count} times`);
    }

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
    t.diagnostic(`the survivor took the lease ${lateMs} ms after the victim's expired`);
    assert.ok(lateMs <= RECONCILER_POLL_MS + 1_000, `the lease moved ${lateMs} ms after it expired`);
  });
});
