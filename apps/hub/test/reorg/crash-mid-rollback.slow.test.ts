import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { systemClock } from "@hub/clock";
import { onchainFillSchema } from "@hub/contract";
import { createTestDatabases, openStore, type Store } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import { createReconciler, getChainFacts } from "../../src/reconciler/index.js";
import { createChainFactsStore } from "../../src/store/chain-facts-store.js";
import { call, createTestHubApp, envelopeOf } from "../hub-fixture.js";
import { type OrderDevnet, rpc, startOrderDevnet } from "../reconciler-devnet.js";

// A reconciler process is killed (SIGKILL) inside a rollback's transaction, after every statement of
// it and before its commit (the child's test seam). On restart with the same database nothing of the
// rollback is there (watermark, facts and kept blocks as before it), and the restarted reconciler
// rolls back again and indexes the new branch: the views are right.
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

function startChild(config: Record<string, unknown>): { child: ChildProcess; output: () => string } {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      fileURLToPath(new URL("../reconciler-child-process.ts", import.meta.url)),
      JSON.stringify(config),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

for (const { driver, skip } of databases.drivers) {
  describe(`a crash in the middle of a rollback on ${driver}`, { skip }, () => {
    test("a reconciler killed inside its rollback leaves nothing half-applied; after the restart the views show the new branch", async () => {
      const target = await databases.prepareDataDir(driver);
      const destination = devnet.destination;
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      const fill = await devnet.fill(opened);
      const fillBlock = (await rpc(destination.rpcUrl, "eth_getBlockByNumber", ["latest", false])) as {
        number: string;
        hash: string;
      };
      const leaseName = "crash-mid-rollback";
      const { child, output } = startChild({
        dataDir: target.dataDir,
        databaseUrl: target.databaseUrl,
        chains: devnet.reconcilerChains(),
        leaseName,
        instanceId: "child",
        leaseTtlMs: 1000,
        maxBlockRange: 2000,
        pauseInRollback: true,
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      let store: Store | undefined;
      try {
        await pollUntil(
          "the child indexes the fill's block",
          () => {
            if (child.exitCode !== null) throw new Error(`the child exited ${child.exitCode}`);
            const marks = [
              ...output().matchAll(new RegExp(`^watermark ${destination.chainDomain} (\\d+)$`, "gm")),
            ];
            return marks.some((mark) => Number(mark[1]) >= Number(fillBlock.number)) ? true : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 10 },
        );
        // The fill's block is replaced by an empty one: the child starts rolling it back, and is killed there.
        await rpc(destination.rpcUrl, "anvil_reorg", [1, []]);
        await pollUntil(
          "the child pauses inside its rollback",
          () => (output().includes(`rollback paused ${destination.chainDomain}`) ? true : undefined),
          { timeoutMs: 60_000, intervalMs: 10 },
        );
        child.kill("SIGKILL");
        await exited;

        store = await openStore({
          dataDir: target.dataDir,
          ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}),
          migrate: false,
        });
        const facts = createChainFactsStore(store.sql);
        // Nothing of the rollback: the watermark, the fill and the kept block are those of the old branch.
        const watermark = await facts.getWatermark(destination.chainDomain);
        assert.equal(watermark?.lastBlock, Number(fillBlock.number));
        assert.equal(watermark?.lastBlockHash, fillBlock.hash);
        assert.equal((await getChainFacts(store.sql, opened.orderId))?.fills[0]?.txHash, fill.txHash);
        const kept = await facts.listKeptBlocks(destination.chainDomain);
        assert.equal(kept[0]?.number, Number(fillBlock.number));
        assert.equal(kept[0]?.hash, fillBlock.hash);

        const restarted = createReconciler({
          sql: store.sql,
          chains: devnet.reconcilerChains(),
          clock: systemClock,
          logger,
          leaseName,
          instanceId: "restarted",
        });
        const result = await pollUntil(
          "the restarted reconciler leads once the killed child's lease lapses",
          async () => {
            const tick = await restarted.tick();
            return tick.leader ? tick : undefined;
          },
          { timeoutMs: 15_000, intervalMs: 100 },
        );
        const rolled = result.chains.find((chain) => chain.chainDomain === destination.chainDomain);
        assert.equal(rolled?.error, undefined, rolled?.error);
        assert.equal(rolled?.reorg?.depth, 1);
        await restarted.stop();

        const hub = createTestHubApp({ sql: store.sql });
        try {
          const view = onchainFillSchema.parse(
            envelopeOf(await call(hub, "GET", `/v1/onchain/${opened.orderId}/fill`)).data,
          );
          assert.deepEqual(view.fills, []);
          assert.equal(view.status, "OPEN");
        } finally {
          await hub.close();
        }
        const head = (await rpc(destination.rpcUrl, "eth_getBlockByNumber", ["latest", false])) as {
          number: string;
          hash: string;
        };
        const after = await facts.getWatermark(destination.chainDomain);
        assert.equal(after?.lastBlock, Number(head.number));
        assert.equal(after?.lastBlockHash, head.hash);
        const keptAfter = await facts.listKeptBlocks(destination.chainDomain);
        assert.equal(keptAfter[0]?.hash, head.hash);
        assert.ok(
          !keptAfter.some((block) => block.hash === fillBlock.hash),
          "the replaced block is no longer kept",
        );
      } finally {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGKILL");
          await exited;
        }
        await store?.close();
        await target.dispose();
      }
    });
  });
}
