import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { systemClock } from "@hub/clock";
import type { OnchainFill, OnchainRefund } from "@hub/contract";
import { createTestDatabases, type TestDatabase } from "@hub/store";
import { pino } from "pino";
import type { HubApp } from "../src/create-hub-app.js";
import {
  createReconciler,
  type Reconciler,
  type ReconcilerChainConfig,
  type ReconcilerDeps,
  type TickResult,
} from "../src/reconciler/index.js";
import { createChainFactsStore } from "../src/store/chain-facts-store.js";
import { call, createTestHubApp, envelopeOf } from "./hub-fixture.js";
import { type OrderDevnet, rpc, startOrderDevnet } from "./reconciler-devnet.js";
import { type LaggingNodeProxy, startLaggingNodeProxy } from "./reorg/lagging-node-proxy.js";

// Reorganisations on anvil (anvil_reorg, anvil_rollback) through the real reconciler and store, read
// through the hub's on-chain views by HTTP. Both chains count a block final two blocks deep.
const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const logger = pino({ level: "silent" });
const depth = 2;

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

async function mine(rpcUrl: string, blocks: number): Promise<void> {
  await rpc(rpcUrl, "anvil_mine", [`0x${blocks.toString(16)}`]);
}

for (const { driver, skip } of databases.drivers) {
  describe(`reorganisations on anvil with ${driver}`, { skip }, () => {
    let db: TestDatabase;
    let hub: HubApp;
    const running: Reconciler[] = [];
    before(async () => {
      db = await databases.open(driver);
      hub = createTestHubApp({ sql: db.sql });
    });
    after(async () => {
      await Promise.all(running.map((reconciler) => reconciler.stop()));
      await hub?.close();
      await db?.dispose();
    });

    function chains(): ReconcilerChainConfig[] {
      return devnet.reconcilerChains().map((chain) => ({ ...chain, finality: { depth } }));
    }

    function reconciler(overrides: Partial<ReconcilerDeps> = {}): Reconciler {
      const created = createReconciler({
        sql: db.sql,
        chains: chains(),
        clock: systemClock,
        logger,
        leaseName: `reorg-${driver}`,
        ...overrides,
      });
      running.push(created);
      return created;
    }

    async function fillView(orderId: string): Promise<OnchainFill> {
      return envelopeOf(await call(hub, "GET", `/v1/onchain/${orderId}/fill`)).data as OnchainFill;
    }

    async function refundView(orderId: string): Promise<OnchainRefund> {
      return envelopeOf(await call(hub, "GET", `/v1/onchain/${orderId}/refund`)).data as OnchainRefund;
    }

    async function finalBoth(): Promise<void> {
      await mine(devnet.origin.rpcUrl, depth);
      await mine(devnet.destination.rpcUrl, depth);
    }

    test("SETTLED never comes from a block that is not final: FILLED with settledTx.final false, then SETTLED once final", async () => {
      const r = reconciler();
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      const fill = await devnet.fill(opened);
      assertNoChainErrors(await r.tick());
      const fresh = await fillView(opened.orderId);
      assert.equal(fresh.status, "FILLED");
      assert.equal(fresh.fills[0]?.txHash, fill.txHash);
      assert.equal(fresh.fills[0]?.final, false);
      assert.equal(fresh.openTx?.final, false);

      await devnet.proveAndFinalise(opened, fill.txHash);
      assertNoChainErrors(await r.tick());
      const unsure = await fillView(opened.orderId);
      assert.equal(unsure.settledTx?.final, false, "the settle is shown, marked not final");
      assert.equal(unsure.status, "FILLED");
      assert.equal(unsure.settled, false);
      assert.equal((await refundView(opened.orderId)).refundable, false);

      await finalBoth();
      assertNoChainErrors(await r.tick());
      const settled = await fillView(opened.orderId);
      assert.equal(settled.status, "SETTLED");
      assert.equal(settled.settled, true);
      assert.equal(settled.settledTx?.final, true);
      assert.equal(settled.fills[0]?.final, true);
      await r.stop();
    });

    test("a reorganisation drops a fill: the view stops reporting it, and a later order on the same chain is filled and settled", async () => {
      const r = reconciler();
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      await mine(devnet.origin.rpcUrl, depth);
      const fill = await devnet.fill(opened);
      assertNoChainErrors(await r.tick());
      assert.equal((await fillView(opened.orderId)).fills[0]?.txHash, fill.txHash);

      // The fill's block is replaced by an empty one: its receipt is gone.
      await rpc(devnet.destination.rpcUrl, "anvil_reorg", [1, []]);
      assert.equal(await rpc(devnet.destination.rpcUrl, "eth_getTransactionReceipt", [fill.txHash]), null);
      const result = await r.tick();
      assertNoChainErrors(result);
      const reorg = result.chains.find(
        (chain) => chain.chainDomain === devnet.destination.chainDomain,
      )?.reorg;
      assert.equal(reorg?.depth, 1);
      assert.equal(reorg?.finalityViolated, false);
      const dropped = await fillView(opened.orderId);
      assert.deepEqual(dropped.fills, []);
      assert.equal(dropped.status, "OPEN");
      assert.equal(dropped.filled, false);
      const state = r.chainStates().find((chain) => chain.chainDomain === devnet.destination.chainDomain);
      assert.deepEqual(state?.reorgsByDepth, { "1": 1 });

      // The chain is not wedged: a later order on it is seen filled, then settled.
      const later = await devnet.newOrder();
      await devnet.open(later);
      const laterFill = await devnet.fill(later);
      await devnet.proveAndFinalise(later, laterFill.txHash);
      await finalBoth();
      assertNoChainErrors(await r.tick());
      const settled = await fillView(later.orderId);
      assert.equal(settled.status, "SETTLED");
      assert.equal(settled.fills[0]?.txHash, laterFill.txHash);
      await r.stop();
    });

    test("a reorganisation re-includes the fill in another block: the view reports the new block", async () => {
      const r = reconciler();
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      const fill = await devnet.fill(opened);
      assertNoChainErrors(await r.tick());
      const before = (await fillView(opened.orderId)).fills[0];
      assert.equal(before?.txHash, fill.txHash);

      const raw = await rpc(devnet.destination.rpcUrl, "eth_getRawTransactionByHash", [fill.txHash]);
      await rpc(devnet.destination.rpcUrl, "anvil_reorg", [1, [[raw, 0]]]);
      const receipt = (await rpc(devnet.destination.rpcUrl, "eth_getTransactionReceipt", [fill.txHash])) as {
        blockHash: string;
      };
      assert.notEqual(receipt.blockHash, before?.blockHash);
      assertNoChainErrors(await r.tick());
      const after = (await fillView(opened.orderId)).fills;
      assert.equal(after.length, 1);
      assert.equal(after[0]?.txHash, fill.txHash);
      assert.equal(after[0]?.blockHash, receipt.blockHash);
      await r.stop();
    });

    test("a reorganisation of the source chain's open removes the order, and a later open on that chain is seen", async () => {
      const r = reconciler();
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      assertNoChainErrors(await r.tick());
      assert.equal((await fillView(opened.orderId)).status, "OPEN");

      await rpc(devnet.origin.rpcUrl, "anvil_rollback", [1]);
      await mine(devnet.origin.rpcUrl, 1);
      assertNoChainErrors(await r.tick());
      const gone = await fillView(opened.orderId);
      assert.equal(gone.status, null);
      assert.equal(gone.openTx, undefined);

      const later = await devnet.newOrder();
      await devnet.open(later);
      assertNoChainErrors(await r.tick());
      assert.equal((await fillView(later.orderId)).status, "OPEN");
      await r.stop();
    });

    test("a reorganisation of a settlement takes the settle back; settled again once the new branch settles and is final", async () => {
      const r = reconciler();
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      const fill = await devnet.fill(opened);
      await finalBoth();
      assertNoChainErrors(await r.tick());
      const originHead = Number(await rpc(devnet.origin.rpcUrl, "eth_blockNumber"));
      const settleTx = await devnet.proveAndFinalise(opened, fill.txHash);
      assertNoChainErrors(await r.tick());
      assert.equal((await fillView(opened.orderId)).settledTx?.txHash, settleTx);

      const replaced = Number(await rpc(devnet.origin.rpcUrl, "eth_blockNumber")) - originHead;
      await rpc(devnet.origin.rpcUrl, "anvil_reorg", [replaced, []]);
      assertNoChainErrors(await r.tick());
      const unsettled = await fillView(opened.orderId);
      assert.equal(unsettled.settledTx, undefined);
      assert.equal(unsettled.status, "FILLED");
      assert.equal(unsettled.settled, false);

      await devnet.proveAndFinalise(opened, fill.txHash);
      await finalBoth();
      assertNoChainErrors(await r.tick());
      assert.equal((await fillView(opened.orderId)).status, "SETTLED");
      await r.stop();
    });

    test("a reorganisation deeper than finality is rolled back and counted as a finality violation", async () => {
      const r = reconciler();
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      const fill = await devnet.fill(opened);
      await finalBoth();
      assertNoChainErrors(await r.tick());
      const final = await fillView(opened.orderId);
      assert.equal(final.fills[0]?.final, true);

      await rpc(devnet.destination.rpcUrl, "anvil_reorg", [depth + 1, []]);
      const result = await r.tick();
      assertNoChainErrors(result);
      const reorg = result.chains.find(
        (chain) => chain.chainDomain === devnet.destination.chainDomain,
      )?.reorg;
      assert.equal(reorg?.depth, depth + 1);
      assert.equal(reorg?.finalityViolated, true);
      assert.deepEqual((await fillView(opened.orderId)).fills, []);
      const state = r.chainStates().find((chain) => chain.chainDomain === devnet.destination.chainDomain);
      assert.equal(state?.finalityViolations, 1);
      assert.equal(fill.txHash.length, 66);
      await r.stop();
    });

    test("a reorganisation while the reconciler is down is rolled back by the next instance on the same store", async () => {
      const first = reconciler({ instanceId: "first" });
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      const fill = await devnet.fill(opened);
      assertNoChainErrors(await first.tick());
      assert.equal((await fillView(opened.orderId)).fills[0]?.txHash, fill.txHash);
      await first.stop();

      await rpc(devnet.destination.rpcUrl, "anvil_reorg", [1, []]);
      await mine(devnet.destination.rpcUrl, 1);
      const second = reconciler({ instanceId: "second" });
      assertNoChainErrors(await second.tick());
      assert.deepEqual((await fillView(opened.orderId)).fills, []);
      const watermark = await createChainFactsStore(db.sql).getWatermark(devnet.destination.chainDomain);
      const head = Number(await rpc(devnet.destination.rpcUrl, "eth_blockNumber"));
      assert.equal(watermark?.lastBlock, head);
      await second.stop();
    });

    test("a lagging node answering eth_getLogs [] past its head: the fill is still found, and the order never reads EXPIRED or refundable", async () => {
      const proxy: LaggingNodeProxy = await startLaggingNodeProxy(devnet.destination.rpcUrl);
      try {
        const r = reconciler({
          chains: chains().map((chain) =>
            chain.chainDomain === devnet.destination.chainDomain ? { ...chain, rpcUrl: proxy.url } : chain,
          ),
          instanceId: "lagging",
        });
        const opened = await devnet.newOrder({ fillDeadlineSeconds: 30, expiresSeconds: 3600 });
        await devnet.open(opened);
        assertNoChainErrors(await r.tick());
        proxy.lagHead = Number(await rpc(devnet.destination.rpcUrl, "eth_blockNumber"));
        const fill = await devnet.fill(opened);
        // The destination's clock passes fillDeadline and the fill's block becomes final.
        const destinationNow = await devnet.latestTimestamp(devnet.destination);
        await devnet.increaseTime(devnet.destination, opened.order.fillDeadline - destinationNow + 1);
        await finalBoth();
        for (let i = 0; i < 3; i += 1) {
          const result = await r.tick();
          const destination = result.chains.find((c) => c.chainDomain === devnet.destination.chainDomain);
          assert.match(destination?.error ?? "", /has not seen block|unknown block/);
          const view = await fillView(opened.orderId);
          assert.notEqual(view.status, "EXPIRED");
          assert.equal((await refundView(opened.orderId)).refundable, false);
        }
        proxy.lagHead = undefined;
        assertNoChainErrors(await r.tick());
        const found = await fillView(opened.orderId);
        assert.equal(found.fills[0]?.txHash, fill.txHash);
        assert.equal(found.status, "FILLED");
        assert.equal((await refundView(opened.orderId)).refundable, false);
        await r.stop();
      } finally {
        await proxy.stop();
      }
    });
  });
}
