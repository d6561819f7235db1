import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { systemClock } from "@hub/clock";
import { onchainFillSchema } from "@hub/contract";
import { createRpcFaultProxy } from "@hub/devnet-app";
import { createTestDatabases } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import { createReconciler } from "../../src/reconciler/index.js";
import { createChainFactsStore } from "../../src/store/chain-facts-store.js";
import { call, createTestHubApp, envelopeOf } from "../hub-fixture.js";
import { type OrderDevnet, startOrderDevnet } from "../reconciler-devnet.js";

// One chain's RPC answers every call in 8 s (through the fault-injecting proxy); the other chain's
// facts still reach the views within that chain's own poll interval and one pass, since each chain
// indexes in its own loop.
const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const SLOW_MS = 8_000;
const POLL_MS = 200;
/** The fill must be seen well before one slow answer would have come back. */
const SEEN_WITHIN_MS = 3_000;

let devnet: OrderDevnet;
before(async () => {
  devnet = await startOrderDevnet();
});
after(async () => {
  await devnet?.stop();
  await databases.dispose();
});

for (const { driver, skip } of databases.drivers) {
  describe(`a slow chain on ${driver}`, { skip }, () => {
    test(`a chain whose RPC answers in ${SLOW_MS / 1000} s delays no other chain: a fill is seen within the other's poll interval`, async () => {
      const db = await databases.open(driver);
      const proxy = await createRpcFaultProxy({ target: devnet.origin.rpcUrl });
      const hub = createTestHubApp({ sql: db.sql });
      const reconciler = createReconciler({
        sql: db.sql,
        chains: devnet
          .reconcilerChains()
          .map((chain) =>
            chain.chainDomain === devnet.origin.chainDomain
              ? { ...chain, rpcUrl: proxy.url, rpcUrls: [proxy.url] }
              : chain,
          ),
        clock: systemClock,
        logger: pino({ level: "silent" }),
        leaseName: `slow-chain-${driver}`,
        pollIntervalMs: POLL_MS,
      });
      const fillView = async (orderId: string) =>
        onchainFillSchema.parse(envelopeOf(await call(hub, "GET", `/v1/onchain/${orderId}/fill`)).data);
      try {
        const opened = await devnet.newOrder();
        await devnet.open(opened);
        reconciler.start();
        await pollUntil(
          "both chains indexed, the open seen",
          async () => ((await fillView(opened.orderId)).status === "OPEN" ? true : undefined),
          { timeoutMs: 30_000, intervalMs: 100 },
        );

        proxy.setFaults({ delayMs: SLOW_MS });
        proxy.resetStats();
        await pollUntil(
          "the origin's loop is waiting on a slow answer",
          () => (Object.values(proxy.stats().calls).some((count) => count > 0) ? true : undefined),
          { timeoutMs: 10_000, intervalMs: 20 },
        );
        const originBefore = await createChainFactsStore(db.sql).getWatermark(devnet.origin.chainDomain);

        const fill = await devnet.fill(opened);
        const filledAt = Date.now();
        const seen = await pollUntil(
          "the destination's fill in the view",
          async () => {
            const view = await fillView(opened.orderId);
            return view.fills.some((entry) => entry.txHash === fill.txHash) ? view : undefined;
          },
          { timeoutMs: SLOW_MS * 3, intervalMs: 20 },
        );
        const latencyMs = Date.now() - filledAt;
        assert.ok(latencyMs < SEEN_WITHIN_MS, `the fill was seen ${latencyMs} ms after it was mined`);
        assert.equal(seen.status, "FILLED");
        // The origin was slow all along: no answer came back from it in the meantime.
        assert.deepEqual(
          await createChainFactsStore(db.sql).getWatermark(devnet.origin.chainDomain),
          originBefore,
        );
        assert.ok(Date.now() - filledAt < SLOW_MS, "measured within one slow answer");

        // The slow chain is not dropped: once its RPC answers quickly it indexes again.
        proxy.setFaults({});
        await devnet.increaseTime(devnet.origin, 1);
        const head = Number(await devnet.originClient.getBlockNumber());
        await pollUntil(
          "the origin catches up",
          async () => {
            const mark = await createChainFactsStore(db.sql).getWatermark(devnet.origin.chainDomain);
            return mark && mark.lastBlock >= head ? true : undefined;
          },
          { timeoutMs: SLOW_MS * 6, intervalMs: 100 },
        );
      } finally {
        proxy.setFaults({});
        await reconciler.stop();
        await hub.close();
        await proxy.close();
        await db.dispose();
      }
    });
  });
}
