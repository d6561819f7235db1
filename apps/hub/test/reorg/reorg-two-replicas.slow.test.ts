import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { createPostgresClient, createTestDatabases, type PreparedDataDir, type SqlClient } from "@hub/store";
import { type PrivateServer, pollUntil, startPrivateRedis } from "@hub/test-support";
import { createOrgWithKey } from "../hub-process.js";
import { type OrderDevnet, rpc, startOrderDevnet } from "../reconciler-devnet.js";
import { readReconcilerLease } from "../store/chain-facts-rows.js";
import {
  fillViewOf,
  type StackBesideDevnet,
  stackEnv,
  startStackBesideDevnet,
  writeDevnetCatalog,
} from "./stack-beside-devnet.js";

// Two `hub start` replicas on one PostgreSQL schema and one Redis, beside anvil chains the test owns:
// the replica holding the reconciler lease rolls a reorganisation back, and the other one, which
// indexes nothing, serves the corrected views from the shared database.
const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const skip = process.env.DATABASE_URL ? false : "DATABASE_URL is not set: two replicas need PostgreSQL";

type ReplicaId = "a" | "b";

describe("a reorganisation with two replicas on PostgreSQL and Redis", { skip }, () => {
  let devnet: OrderDevnet;
  let target: PreparedDataDir;
  let redis: PrivateServer;
  let sql: SqlClient;
  const replicas = {} as Record<ReplicaId, StackBesideDevnet>;
  let key: string;

  before(async () => {
    devnet = await startOrderDevnet();
    target = await databases.prepareDataDir("postgres");
    redis = await startPrivateRedis();
    sql = createPostgresClient({ connectionString: target.databaseUrl!, maxConnections: 2 });
    const catalogFile = await writeDevnetCatalog(devnet, target.dataDir);
    const envs = (["a", "b"] as const).map((id) => {
      const dataDir = join(target.dataDir, id);
      mkdirSync(dataDir, { recursive: true });
      return stackEnv({
        devnet,
        catalogFile,
        dataDir,
        databaseUrl: target.databaseUrl!,
        redisUrl: redis.url,
        replicaId: id,
      });
    });
    const [a, b] = await Promise.all(envs.map((env) => startStackBesideDevnet(env)));
    replicas.a = a!;
    replicas.b = b!;
    key = (await createOrgWithKey(envs[0]!, "reorg-replicas")).key;
  });

  after(async () => {
    for (const replica of Object.values(replicas)) await replica.end("SIGKILL");
    await sql?.close();
    await redis?.close();
    await devnet?.stop();
    await target?.dispose();
    await databases.dispose();
  });

  test("the lease holder rolls a dropped fill back and the other replica serves the corrected fill view; a later fill is seen by both", async () => {
    const destination = devnet.destination;
    const opened = await devnet.newOrder({ fillDeadlineSeconds: 3600, expiresSeconds: 7200 });
    await devnet.open(opened);
    const fill = await devnet.fill(opened);
    const holder = await pollUntil(
      "a replica leads the reconciler",
      async () => (await readReconcilerLease(sql))?.holder,
    );
    const leader = holder.split("_")[1] as ReplicaId;
    assert.ok(leader === "a" || leader === "b", `the lease holder ${holder} names its replica`);
    const other: ReplicaId = leader === "a" ? "b" : "a";

    for (const id of ["a", "b"] as const) {
      await pollUntil(
        `replica ${id} shows the fill`,
        async () => {
          const view = await fillViewOf(replicas[id].baseUrl, key, opened.orderId);
          return view.fills[0]?.txHash === fill.txHash ? view : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
    }

    // The fill's block is replaced by an empty one.
    await rpc(destination.rpcUrl, "anvil_reorg", [1, []]);
    const corrected = await pollUntil(
      `replica ${other}, which does not index, serves the fill view without the dropped fill`,
      async () => {
        const view = await fillViewOf(replicas[other].baseUrl, key, opened.orderId);
        return view.fills.length === 0 ? view : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
    assert.equal(corrected.status, "OPEN");
    assert.equal(corrected.filled, false);
    assert.equal((await readReconcilerLease(sql))?.holder, holder, "the lease did not move");
    const rolledBack = (id: ReplicaId) =>
      replicas[id]
        .output()
        .split("\n")
        .filter((line) => line.includes("chain reorganised")).length;
    assert.equal(rolledBack(leader), 1, "the lease holder logged its rollback");
    assert.equal(rolledBack(other), 0, "the other replica rolled nothing back");

    // Not wedged: a later order on the same chain is seen filled through either replica.
    const later = await devnet.newOrder({ fillDeadlineSeconds: 3600, expiresSeconds: 7200 });
    await devnet.open(later);
    const laterFill = await devnet.fill(later);
    await rpc(destination.rpcUrl, "anvil_mine", ["0x2"]);
    await rpc(devnet.origin.rpcUrl, "anvil_mine", ["0x2"]);
    for (const id of ["a", "b"] as const) {
      const view = await pollUntil(
        `replica ${id} shows the later fill, final`,
        async () => {
          const read = await fillViewOf(replicas[id].baseUrl, key, later.orderId);
          // Each chain has its own loop: the destination's fill can be final before the origin's
          // open is indexed (AWAITING_OPEN meanwhile), so the status is waited for too.
          const filled = read.fills[0]?.txHash === laterFill.txHash && read.fills[0]?.final;
          return filled && read.status === "FILLED" ? read : undefined;
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      );
      assert.equal(view.status, "FILLED");
    }
  });
});
