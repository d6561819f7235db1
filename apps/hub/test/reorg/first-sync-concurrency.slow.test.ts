import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { systemClock } from "@hub/clock";
import { createTestDatabases } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import { createEvmChainReader, createReconciler, getChainFacts } from "../../src/reconciler/index.js";
import { createChainFactsStore } from "../../src/store/chain-facts-store.js";
import { type OpenedOrder, type OrderDevnet, rpc, startOrderDevnet } from "../reconciler-devnet.js";
import { startRecordingRpcProxy } from "./recording-rpc-proxy.js";

// A first sync of a long history reads several ranges at once, within the chain's bound on calls in
// flight, and commits them in block order: the watermark moves only over contiguous indexed ranges,
// even when a later range is read before an earlier one.
const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
const RANGE = 20;
const CALLS_IN_FLIGHT = 6;

let devnet: OrderDevnet;
const orders: OpenedOrder[] = [];
before(async () => {
  devnet = await startOrderDevnet();
  // Fills spread over a history of some 200 blocks on the destination.
  for (let i = 0; i < 3; i++) {
    const opened = await devnet.newOrder();
    await devnet.open(opened);
    await devnet.fill(opened);
    await rpc(devnet.destination.rpcUrl, "anvil_mine", ["0x3c"]);
    orders.push(opened);
  }
});
after(async () => {
  await devnet?.stop();
  await databases.dispose();
});

for (const { driver, skip } of databases.drivers) {
  describe(`first sync on ${driver}`, { skip }, () => {
    test("ranges are read concurrently within the bound and committed in order: the watermark never passes a range not yet read", async () => {
      const db = await databases.open(driver);
      const proxy = await startRecordingRpcProxy(devnet.destination.rpcUrl, 50);
      const chain = devnet.reconcilerChains().find((c) => c.chainDomain === devnet.destination.chainDomain);
      assert.ok(chain);
      const reconciler = createReconciler({
        sql: db.sql,
        chains: [{ ...chain, rpcUrl: proxy.url }],
        clock: systemClock,
        logger: pino({ level: "silent" }),
        leaseName: `first-sync-${driver}`,
        maxBlockRange: RANGE,
        rangesInFlight: 4,
        createChainReader: () => createEvmChainReader({ rpcUrls: [proxy.url], maxInFlight: CALLS_IN_FLIGHT }),
      });
      const facts = createChainFactsStore(db.sql);
      const marks: number[] = [];
      let watching = true;
      const watcher = (async () => {
        while (watching) {
          const mark = await facts.getWatermark(chain.chainDomain);
          if (mark && marks.at(-1) !== mark.lastBlock) marks.push(mark.lastBlock);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      try {
        const head = Number(await devnet.destinationClient.getBlockNumber());
        const ranges = Math.ceil((head - chain.startBlock + 1) / RANGE);
        assert.ok(ranges >= 8, `${ranges} ranges of history`);

        // The first range is held back: the ranges behind it are read meanwhile, and none is committed.
        proxy.holdLogsFrom(chain.startBlock);
        const tick = reconciler.tick();
        await pollUntil(
          "ranges behind the held one are read",
          () => (proxy.answeredLogRanges().length >= 2 ? true : undefined),
          { timeoutMs: 20_000, intervalMs: 10 },
        );
        assert.ok(!proxy.answeredLogRanges().includes(chain.startBlock));
        assert.equal(await facts.getWatermark(chain.chainDomain), undefined, "nothing committed past a gap");
        proxy.releaseHeld();
        const result = await tick;
        assert.equal(result.chains[0]?.error, undefined, result.chains[0]?.error);
        assert.equal(result.chains[0]?.ranges, ranges);

        const seen = proxy.maxInFlight();
        assert.ok(seen.getLogs >= 2, `ranges read at once: ${seen.getLogs}`);
        assert.ok(seen.all <= CALLS_IN_FLIGHT, `calls in flight at once: ${seen.all}`);
        // Answers went out of block order, commits did not.
        const answered = proxy.answeredLogRanges();
        assert.notDeepEqual(
          answered,
          [...answered].sort((a, b) => a - b),
        );
        watching = false;
        await watcher;
        const last = (await facts.getWatermark(chain.chainDomain))?.lastBlock;
        assert.equal(last, head);
        if (marks.at(-1) !== last) marks.push(last);
        for (const mark of marks) {
          assert.equal(
            (mark - chain.startBlock + 1) % RANGE === 0 || mark === head,
            true,
            `watermark ${mark}`,
          );
        }
        assert.deepEqual(
          marks,
          [...marks].sort((a, b) => a - b),
        );
        for (const order of orders) {
          const view = await getChainFacts(db.sql, order.orderId);
          assert.equal(view?.fills.length, 1, `the fill of ${order.orderId}`);
        }
      } finally {
        watching = false;
        await watcher;
        await reconciler.stop();
        await proxy.close();
        await db.dispose();
      }
    });
  });
}
