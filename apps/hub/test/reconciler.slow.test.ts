import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { systemClock } from "@hub/clock";
import { createTestDatabases, openStore, type SqlClient, type Store, type TestDatabase } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import {
  type ChainReader,
  createEvmChainReader,
  createReconciler,
  getChainFacts,
  type Reconciler,
  type ReconcilerDeps,
  type TickResult,
} from "../src/reconciler/index.js";
import { createChainFactsStore } from "../src/store/chain-facts-store.js";
import { type OrderDevnet, rpc, startOrderDevnet } from "./reconciler-devnet.js";
import { countFacts, deleteAllWatermarks } from "./store/chain-facts-rows.js";

const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const logger = pino({ level: "silent" });

let devnet: OrderDevnet;
before(async () => {
  devnet = await startOrderDevnet();
});
after(async () => {
  await devnet?.stop();
  await databases.dispose();
});

function assertNoChainErrors(result: TickResult): void {
  for (const chain of result.chains)
    assert.equal(chain.error, undefined, `${chain.chainDomain}: ${chain.error}`);
}

/** The same four counts read straight from the chains, up to each chain's watermark. */
async function countChainLogs(sql: SqlClient): Promise<Record<string, number>> {
  const counts: Record<string, number> = {
    chain_order_opens: 0,
    chain_output_fills: 0,
    chain_order_finalisations: 0,
    chain_order_refunds: 0,
  };
  const table = {
    open: "chain_order_opens",
    "output-filled": "chain_output_fills",
    finalised: "chain_order_finalisations",
    refunded: "chain_order_refunds",
  } as const;
  for (const chain of devnet.reconcilerChains()) {
    const watermark = await createChainFactsStore(sql).getWatermark(chain.chainDomain);
    assert.ok(watermark, `${chain.chainDomain} has a watermark`);
    const logs = await createEvmChainReader({ rpcUrl: chain.rpcUrl }).orderLogs({
      fromBlock: chain.startBlock,
      toBlock: watermark.lastBlock,
      inputSettlers: chain.inputSettlers,
      outputSettler: chain.outputSettler,
    });
    for (const log of logs) {
      if (log.kind !== "bridge-deposited" && log.kind !== "bridge-released") counts[table[log.kind]]! += 1;
    }
  }
  return counts;
}

for (const { driver, skip } of databases.drivers) {
  describe(`reconciler on anvil with ${driver}`, { skip }, () => {
    let db: TestDatabase;
    const running: Reconciler[] = [];
    before(async () => {
      db = await databases.open(driver);
    });
    after(async () => {
      await Promise.all(running.map((reconciler) => reconciler.stop()));
      await db?.dispose();
    });

    function reconciler(overrides: Partial<ReconcilerDeps> = {}): Reconciler {
      const created = createReconciler({
        sql: db.sql,
        chains: devnet.reconcilerChains(),
        clock: systemClock,
        logger,
        confirmations: 0,
        leaseName: `reconciler-${driver}`,
        ...overrides,
      });
      running.push(created);
      return created;
    }

    test("an order opened, filled on the other chain and finalised after the committee proof reads OPEN, FILLED, SETTLED", async () => {
      const r = reconciler();
      const opened = await devnet.newOrder();
      const openTx = await devnet.open(opened);
      assertNoChainErrors(await r.tick());
      const open = await getChainFacts(db.sql, opened.orderId);
      assert.equal(open?.status, "OPEN");
      assert.equal(open?.fillDeadline, new Date(opened.order.fillDeadline * 1000).toISOString());
      assert.equal(open?.expires, new Date(opened.order.expires * 1000).toISOString());
      assert.equal(open?.order?.user, opened.order.user.toLowerCase());
      assert.equal(open?.open?.txHash, openTx);

      const fill = await devnet.fill(opened);
      assertNoChainErrors(await r.tick());
      const filled = await getChainFacts(db.sql, opened.orderId);
      assert.equal(filled?.status, "FILLED");
      assert.equal(filled?.filled, true);
      assert.equal(filled?.settled, false);
      assert.equal(filled?.fills[0]?.txHash, fill.txHash);
      assert.equal(filled?.fills[0]?.chainDomain, devnet.destination.chainDomain);

      const finaliseTx = await devnet.proveAndFinalise(opened, fill.txHash);
      assertNoChainErrors(await r.tick());
      const settled = await getChainFacts(db.sql, opened.orderId);
      assert.equal(settled?.status, "SETTLED");
      assert.equal(settled?.settled, true);
      assert.equal(settled?.settle?.txHash, finaliseTx);
      await r.stop();
    });

    test("an order past its fillDeadline with no fill is EXPIRED, and REFUNDED after the user's refund", async () => {
      const r = reconciler();
      const opened = await devnet.newOrder({ fillDeadlineSeconds: 30, expiresSeconds: 60 });
      await devnet.open(opened);
      assertNoChainErrors(await r.tick());
      assert.equal((await getChainFacts(db.sql, opened.orderId))?.status, "OPEN");

      const destinationNow = await devnet.latestTimestamp(devnet.destination);
      await devnet.increaseTime(devnet.destination, opened.order.fillDeadline - destinationNow + 1);
      assertNoChainErrors(await r.tick());
      const expired = await getChainFacts(db.sql, opened.orderId);
      assert.equal(expired?.status, "EXPIRED");
      assert.equal(expired?.filled, false);

      const originNow = await devnet.latestTimestamp(devnet.origin);
      await devnet.increaseTime(devnet.origin, opened.order.expires - originNow + 1);
      const refundTx = await devnet.refund(opened);
      assertNoChainErrors(await r.tick());
      const refunded = await getChainFacts(db.sql, opened.orderId);
      assert.equal(refunded?.status, "REFUNDED");
      assert.equal(refunded?.refund?.txHash, refundTx);
      await r.stop();
    });

    test("a fill indexed before its Open reads AWAITING_OPEN, then FILLED once the Open is indexed", async () => {
      const r = reconciler();
      const opened = await devnet.newOrder();
      await devnet.fill(opened);
      assertNoChainErrors(await r.tick());
      const awaiting = await getChainFacts(db.sql, opened.orderId);
      assert.equal(awaiting?.status, "AWAITING_OPEN");
      assert.equal(awaiting?.fills.length, 1);
      assert.equal(awaiting?.fills[0]?.outputIndex, null);

      await devnet.open(opened);
      assertNoChainErrors(await r.tick());
      const filled = await getChainFacts(db.sql, opened.orderId);
      assert.equal(filled?.status, "FILLED");
      assert.equal(filled?.fills[0]?.outputIndex, 0);
      await r.stop();
    });

    test("two reconcilers on one database: only the lease holder indexes, and the other takes over once it stops", async () => {
      const leaseName = `pair-${driver}`;
      const a = reconciler({ leaseName, instanceId: "pair_a" });
      const b = reconciler({ leaseName, instanceId: "pair_b" });
      await devnet.open(await devnet.newOrder());
      const [ra, rb] = await Promise.all([a.tick(), b.tick()]);
      assert.equal([ra, rb].filter((result) => result.leader).length, 1);
      const [leader, follower, followerResult] = ra.leader ? [a, b, rb] : [b, a, ra];
      assert.deepEqual(followerResult.chains, []);
      await devnet.open(await devnet.newOrder());
      assert.equal((await follower.tick()).leader, false);
      await leader.stop();
      const takeover = await follower.tick();
      assert.equal(takeover.leader, true);
      assertNoChainErrors(takeover);
      await follower.stop();
    });

    test("a reconciler that dies mid-catch-up loses and duplicates nothing once another instance takes over", async () => {
      for (let i = 0; i < 3; i++) {
        const opened = await devnet.newOrder();
        await devnet.open(opened);
        await devnet.fill(opened);
      }
      const fresh = await databases.open(driver);
      try {
        const crashAfterRanges = 3;
        let ranges = 0;
        const leaseName = `crash-${driver}`;
        const dying = createReconciler({
          sql: fresh.sql,
          chains: devnet.reconcilerChains(),
          clock: systemClock,
          logger,
          leaseName,
          instanceId: "dying",
          leaseTtlMs: 1000,
          maxBlockRange: 3,
          createChainReader: (chain): ChainReader => {
            const real = createEvmChainReader({ rpcUrl: chain.rpcUrl });
            return {
              ...real,
              orderLogs: async (query) => {
                ranges += 1;
                if (ranges > crashAfterRanges) throw new Error("process killed");
                return real.orderLogs(query);
              },
            };
          },
        });
        const crashed = await dying.tick();
        assert.ok(crashed.chains.some((chain) => chain.error === "process killed"));
        const partial = await countFacts(fresh.sql);

        const successor = createReconciler({
          sql: fresh.sql,
          chains: devnet.reconcilerChains(),
          clock: systemClock,
          logger,
          leaseName,
          instanceId: "successor",
          leaseTtlMs: 1000,
          maxBlockRange: 3,
        });
        // The dead instance never released its lease: the successor waits for it to expire.
        const first = await pollUntil(
          "the successor to lead",
          async () => {
            const result = await successor.tick();
            return result.leader ? result : undefined;
          },
          { timeoutMs: 15_000, intervalMs: 0 },
        );
        assertNoChainErrors(first);
        const counts = await countFacts(fresh.sql);
        assert.deepEqual(counts, await countChainLogs(fresh.sql));
        assert.ok((counts.chain_order_opens ?? 0) >= (partial.chain_order_opens ?? 0));
        assert.ok((counts.chain_output_fills ?? 0) >= 3);

        await deleteAllWatermarks(fresh.sql);
        const rerun = await successor.tick();
        assertNoChainErrors(rerun);
        assert.equal(
          rerun.chains.reduce((sum, chain) => sum + chain.factsWritten, 0),
          0,
        );
        assert.deepEqual(await countFacts(fresh.sql), counts);
        await successor.stop();
        await dying.stop();
      } finally {
        await fresh.dispose();
      }
    });

    // The child opens the database itself, so on PGlite the dir is not open here until the child is
    // dead (a PGlite dir has one opener): the kill then also tests PGlite's recovery of a killed writer.
    test("a reconciler process killed with SIGKILL mid-catch-up loses and duplicates nothing after a restart", async () => {
      for (let i = 0; i < 2; i++) {
        const opened = await devnet.newOrder();
        await devnet.open(opened);
        await devnet.fill(opened);
      }
      const target = await databases.prepareDataDir(driver);
      const origin = devnet.reconcilerChains()[0]!;
      const leaseName = "killed";
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          fileURLToPath(new URL("./reconciler-child-process.ts", import.meta.url)),
          JSON.stringify({
            dataDir: target.dataDir,
            databaseUrl: target.databaseUrl,
            chains: devnet.reconcilerChains(),
            leaseName,
            instanceId: "child",
            leaseTtlMs: 1000,
            maxBlockRange: 1,
          }),
        ],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      const exited = new Promise((resolve) => child.once("exit", resolve));
      let store: Store | undefined;
      try {
        let output = "";
        child.stdout.on("data", (chunk) => {
          output += chunk;
        });
        await pollUntil(
          "the child to index a few ranges",
          () => {
            if (child.exitCode !== null) throw new Error(`the child exited ${child.exitCode}`);
            const marks = [...output.matchAll(new RegExp(`^watermark ${origin.chainDomain} (\\d+)$`, "gm"))];
            return marks.some((mark) => Number(mark[1]) >= origin.startBlock + 3) ? true : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 10 },
        );
        child.kill("SIGKILL");
        await exited;
        store = await openStore({
          dataDir: target.dataDir,
          ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}),
          migrate: false,
        });
        const head = await devnet.originClient.getBlockNumber();
        assert.ok(
          ((await createChainFactsStore(store.sql).getWatermark(origin.chainDomain))?.lastBlock ?? 0) <
            Number(head),
          "killed before catching up",
        );

        const restarted = createReconciler({
          sql: store.sql,
          chains: devnet.reconcilerChains(),
          clock: systemClock,
          logger,
          leaseName,
          // The killed child's short lease is what must lapse; this one must outlast a whole catch-up
          // tick on a busy machine, or its own write is fenced off (the tick reports a watermark conflict).
          leaseTtlMs: 15_000,
        });
        const result = await pollUntil(
          "the restarted reconciler to lead",
          async () => {
            const tick = await restarted.tick();
            return tick.leader ? tick : undefined;
          },
          { timeoutMs: 15_000, intervalMs: 0 },
        );
        assertNoChainErrors(result);
        assert.deepEqual(await countFacts(store.sql), await countChainLogs(store.sql));
        await restarted.stop();
      } finally {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGKILL");
          await exited;
        }
        await store?.close();
        await target.dispose();
      }
    });

    test("with confirmations N, a block is indexed only once N blocks sit on top of it", async () => {
      const fresh = await databases.open(driver);
      const r = createReconciler({
        sql: fresh.sql,
        chains: devnet.reconcilerChains(),
        clock: systemClock,
        logger,
        leaseName: "confirmations",
        confirmations: 2,
      });
      try {
        const opened = await devnet.newOrder();
        await devnet.open(opened);
        const openBlock = Number(await devnet.originClient.getBlockNumber({ cacheTime: 0 }));
        assertNoChainErrors(await r.tick());
        assert.equal(
          (await createChainFactsStore(fresh.sql).getWatermark(devnet.origin.chainDomain))?.lastBlock,
          openBlock - 2,
        );
        assert.equal(await getChainFacts(fresh.sql, opened.orderId), undefined);
        await rpc(devnet.origin.rpcUrl, "anvil_mine", ["0x2"]);
        assertNoChainErrors(await r.tick());
        assert.equal((await getChainFacts(fresh.sql, opened.orderId))?.status, "OPEN");
      } finally {
        await r.stop();
        await fresh.dispose();
      }
    });

    test("when a block under the watermark changes (a reorganisation), the chain is rolled back to the fork and indexed again (issue 28)", async () => {
      const fresh = await databases.open(driver);
      const r = createReconciler({
        sql: fresh.sql,
        chains: devnet.reconcilerChains(),
        clock: systemClock,
        logger,
        leaseName: "reorg",
      });
      const snapshot = (await rpc(devnet.origin.rpcUrl, "evm_snapshot")) as string;
      try {
        const opened = await devnet.newOrder();
        await devnet.open(opened);
        assertNoChainErrors(await r.tick());
        assert.equal((await getChainFacts(fresh.sql, opened.orderId))?.status, "OPEN");
        await rpc(devnet.origin.rpcUrl, "evm_revert", [snapshot]);
        await rpc(devnet.origin.rpcUrl, "evm_increaseTime", [5]);
        await rpc(devnet.origin.rpcUrl, "anvil_mine", ["0x4"]);
        const result = await r.tick();
        assertNoChainErrors(result);
        const origin = result.chains.find((chain) => chain.chainDomain === devnet.origin.chainDomain);
        assert.ok(origin?.reorg, "the reorganisation was rolled back");
        assert.equal(await getChainFacts(fresh.sql, opened.orderId), undefined);
        const head = (await rpc(devnet.origin.rpcUrl, "eth_getBlockByNumber", ["latest", false])) as {
          number: string;
          hash: string;
        };
        const watermark = await createChainFactsStore(fresh.sql).getWatermark(devnet.origin.chainDomain);
        assert.equal(watermark?.lastBlock, Number(head.number));
        assert.equal(watermark?.lastBlockHash, head.hash);
      } finally {
        await r.stop();
        await fresh.dispose();
      }
    });

    test("the poll loop follows new blocks on its own, and stop gives the lease up at once", async () => {
      const leaseName = `loop-${driver}`;
      const r = reconciler({ pollIntervalMs: 20, leaseName });
      r.start();
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      const view = await pollUntil(
        "the loop to index the Open",
        () => getChainFacts(db.sql, opened.orderId),
        { timeoutMs: 15_000, intervalMs: 0 },
      );
      assert.equal(view.status, "OPEN");
      await r.stop();
      assert.equal(await createChainFactsStore(db.sql).getReconcilerLeaseHolder(leaseName), undefined);
      const next = reconciler({ leaseName });
      assert.equal((await next.tick()).leader, true);
      await next.stop();
    });
  });
}
