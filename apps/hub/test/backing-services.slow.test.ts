import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createPostgresClient, type SqlClient } from "@hub/store";
import {
  type PrivateServer,
  pollUntil,
  privateServersMissing,
  startPrivatePostgres,
  startPrivateRedis,
} from "@hub/test-support";
import { GATEWAY_SECRET, gatewayHeaders, quoteBody, SUBJECT, testCatalog } from "./hub-fixture.js";
import {
  callApi,
  codeOf,
  createOrgWithKey,
  type DevFile,
  endHubProcess,
  type HubProcess,
  startHubProcess,
} from "./hub-process.js";
import { readReconcilerLease } from "./store/chain-facts-rows.js";

// One `hub start` on a PostgreSQL and a Redis of the test's own, so both can go down without touching
// the machine's shared servers: what each limit does while Redis is down (docs/decisions.md, Redis
// down), and a PostgreSQL restart the hub rides out without a restart of its own.

const skip = privateServersMissing();

describe("hub start when its Redis goes down and its PostgreSQL restarts", { skip }, () => {
  let postgres: PrivateServer;
  let redis: PrivateServer;
  let sql: SqlClient;
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let hub: HubProcess;
  let dev: DevFile;
  let key: string;
  let orgId: string;

  before(async () => {
    [postgres, redis] = await Promise.all([startPrivatePostgres(), startPrivateRedis()]);
    sql = createPostgresClient({ connectionString: postgres.url, maxConnections: 1 });
    dataDir = mkdtempSync(join(tmpdir(), "hub-backing-services-"));
    const catalogFile = join(dataDir, "catalog.json");
    writeFileSync(catalogFile, JSON.stringify(testCatalog()));
    env = {
      ...process.env,
      HUB_DEVNET: "0",
      HUB_CATALOG_FILE: catalogFile,
      HUB_DATA_DIR: dataDir,
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      HUB_GATEWAY_SECRET: GATEWAY_SECRET,
      GATEWAY_TRUSTED_PROXIES: "127.0.0.1/32",
      GATEWAY_PORT: "0",
      HUB_PORT: "0",
      DASHBOARD_PORT: "0",
      METRICS_PORT: "0",
      LOG_LEVEL: "warn",
    };
    hub = startHubProcess(env);
    dev = await hub.ready;
    ({ key, orgId } = await createOrgWithKey(env, "backing"));
  });

  after(async () => {
    if (hub) await endHubProcess(hub, "SIGKILL");
    await sql?.close();
    await redis?.close();
    await postgres?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const withKey = (extra: Record<string, string> = {}) => ({ "x-api-key": key, ...SUBJECT, ...extra });
  const quote = () => callApi(dev.baseUrl, "POST", "/quote", { headers: withKey(), json: quoteBody() });
  /** The hub's own listener, as the gateway calls it. */
  const quoteAtHub = () =>
    callApi(`${dev.hubUrl}/v1`, "POST", "/quote", {
      headers: gatewayHeaders({ "x-service-org": orgId, ...SUBJECT }),
      json: quoteBody(),
    });

  test("Redis down: the lockout fails closed (every call EPX0053, 503) and the hub's buckets shed (EIN0081); both work again once Redis is back", async () => {
    // No provider is configured, so a quote that passes every limit is EIN0008.
    assert.equal(codeOf(await quote()), "EIN0008");
    assert.equal(codeOf(await quoteAtHub()), "EIN0008");
    const attacker = { "x-forwarded-for": "203.0.113.51" };
    for (let i = 0; i < 20; i++) {
      const refused = await callApi(dev.baseUrl, "GET", "/catalog", {
        headers: { ...attacker, "x-api-key": `svc_sk_${String(i).padStart(43, "Z")}` },
      });
      assert.equal(codeOf(refused), "EPX0002");
    }
    assert.equal(
      codeOf(await callApi(dev.baseUrl, "GET", "/catalog", { headers: withKey(attacker) })),
      "EPX0081",
    );

    await redis.stop();
    for (const answer of [
      await callApi(dev.baseUrl, "GET", "/catalog", { headers: withKey() }),
      await callApi(dev.baseUrl, "GET", "/catalog", { headers: withKey(attacker) }),
      await callApi(dev.baseUrl, "GET", "/catalog", { headers: { "x-api-key": "svc_sk_unknown" } }),
      await quote(),
    ]) {
      assert.equal(codeOf(answer), "EPX0053", "no call passes a lockout that cannot be read");
      assert.equal(answer.status, 503);
    }
    assert.equal(codeOf(await quoteAtHub()), "EIN0081", "a bucket that cannot be read sheds the call");

    await redis.start();
    await pollUntil("the gateway answers again", async () => codeOf(await quote()) === "EIN0008", {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    assert.equal(codeOf(await quoteAtHub()), "EIN0008");
    // A Redis without persistence comes back empty: the lockout it held is gone with it.
    assert.equal(codeOf(await callApi(dev.baseUrl, "GET", "/catalog", { headers: withKey(attacker) })), "ok");
    assert.equal(hub.child.exitCode, null, "the same hub process throughout");
  });

  test("PostgreSQL restarted: calls answer EIN0050 or EPX0053 while it is down, then the same hub process serves reads, writes and the reconciler lease again", async () => {
    assert.equal(codeOf(await callApi(dev.baseUrl, "GET", "/orders", { headers: withKey() })), "ok");
    await postgres.stop();
    // While the key is in the gateway's cache (1 s) the hub answers, then the gateway cannot check it:
    // availability codes both, never the terminal internal error.
    const seen = new Set<string>();
    await pollUntil(
      () => `the gateway refuses a key it cannot check (seen ${[...seen].join(", ")})`,
      async () => {
        const answer = await callApi(dev.baseUrl, "GET", "/orders", { headers: withKey() });
        seen.add(`${codeOf(answer)} ${answer.status}`);
        return codeOf(answer) === "EPX0053";
      },
      { timeoutMs: 5_000, intervalMs: 100 },
    );
    assert.deepEqual(
      [...seen].filter((code) => code !== "EIN0050 400" && code !== "EPX0053 503"),
      [],
      "while PostgreSQL is down every call answers EIN0050 or EPX0053",
    );

    await postgres.start();
    const restartedAt = Date.now();
    await pollUntil(
      "the hub reads the database again",
      async () => codeOf(await callApi(dev.baseUrl, "GET", "/orders", { headers: withKey() })) === "ok",
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    // Writes: a new organization and key through the running stack; a quote charged to its bucket.
    const fresh = await createOrgWithKey(env, "after-restart");
    assert.equal(
      codeOf(
        await callApi(dev.baseUrl, "GET", "/orders", { headers: { "x-api-key": fresh.key, ...SUBJECT } }),
      ),
      "ok",
    );
    assert.equal(codeOf(await quote()), "EIN0008");
    // The reconciler renews its lease (every 5 s, for 15 s) on the restarted server.
    await pollUntil(
      "the reconciler renews its lease after the restart",
      async () => {
        const lease = await readReconcilerLease(sql);
        return lease !== undefined && lease.expiresAt.getTime() > restartedAt + 10_000;
      },
      { timeoutMs: 15_000, intervalMs: 200 },
    );
    assert.equal(hub.child.exitCode, null, "the same hub process throughout");
  });

  test("hub start refuses to start while its Redis does not answer", async () => {
    await redis.stop();
    try {
      const otherDir = mkdtempSync(join(tmpdir(), "hub-backing-services-"));
      try {
        const second = startHubProcess({ ...env, HUB_DATA_DIR: otherDir });
        await assert.rejects(second.ready, /REDIS_URL cannot be reached/);
      } finally {
        rmSync(otherDir, { recursive: true, force: true });
      }
    } finally {
      await redis.start();
    }
  });
});
