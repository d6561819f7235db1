import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type RunningAnvil, startAnvil } from "@hub/chain";
import { systemClock } from "@hub/clock";
import { createTestDatabases } from "@hub/store";
import { pino } from "pino";
import { createReconciler } from "../src/reconciler/index.js";
import { createChainFactsStore } from "../src/store/chain-facts-store.js";
import { rpc } from "./reconciler-devnet.js";

// anvil_mine slows down as the chain grows (2000 blocks took 12 s, the next 2000 27 s here), so the
// suite mines a few thousand; indexing cost per block is what is measured, not mining.
const emptyBlocks = 3000;
const chainId = 31_999;
const chainDomain = `eip155:${chainId}`;
const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });

let anvil: RunningAnvil;
before(async () => {
  anvil = await startAnvil({ chainId });
  for (let mined = 0; mined < emptyBlocks; mined += 300) await rpc(anvil.rpcUrl, "anvil_mine", ["0x12c"]);
});
after(async () => {
  await anvil?.stop();
  await databases.dispose();
});

for (const { driver, skip } of databases.drivers) {
  describe(`reconciler throughput with ${driver}`, { skip }, () => {
    for (const maxBlockRange of [2000, 500, 100]) {
      test(`indexes ${emptyBlocks} empty blocks to the head in ranges of ${maxBlockRange}`, async (t) => {
        const db = await databases.open(driver);
        const reconciler = createReconciler({
          sql: db.sql,
          chains: [
            {
              chainDomain,
              chainId,
              rpcUrl: anvil.rpcUrl,
              inputSettlers: [`0x${"5e".repeat(20)}`],
              outputSettler: `0x${"0f".repeat(20)}`,
              startBlock: 0,
            },
          ],
          clock: systemClock,
          logger: pino({ level: "silent" }),
          maxBlockRange,
        });
        try {
          const started = performance.now();
          const result = await reconciler.tick();
          const seconds = (performance.now() - started) / 1000;
          assert.equal(result.chains[0]?.error, undefined);
          assert.equal(
            (await createChainFactsStore(db.sql).getWatermark(chainDomain))?.lastBlock,
            emptyBlocks,
          );
          const blocks = emptyBlocks + 1;
          t.diagnostic(
            `${driver}, range ${maxBlockRange}: ${blocks} blocks in ${seconds.toFixed(2)} s = ${Math.round(blocks / seconds)} blocks/s (${result.chains[0]?.ranges} ranges)`,
          );
        } finally {
          await reconciler.stop();
          await db.dispose();
        }
      });
    }
  });
}
