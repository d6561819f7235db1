import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { createTestDatabases } from "@hub/store";
import { pollUntil } from "@hub/test-support";
import { createOrgWithKey, hubAdmin } from "../hub-process.js";
import { type OrderDevnet, rpc, startOrderDevnet } from "../reconciler-devnet.js";
import {
  fillViewOf,
  readinessOf,
  type StackBesideDevnet,
  stackEnv,
  startStackBesideDevnet,
  writeDevnetCatalog,
} from "./stack-beside-devnet.js";

// A reorganisation whose fork point lies below every block the reconciler keeps (1024 below its
// watermark) stops the chain: `hub start`'s operator listener answers 503 naming it and a fill on the
// new branch is not read, until `hub admin reindex` moves the watermark below the fork; then the chain
// is indexed again and the views show the new branch. The stack runs with HUB_DEVNET=0 beside anvil chains the test owns.
const databases = createTestDatabases({ databaseUrl: process.env.DATABASE_URL });
/** Blocks mined on top of the fill: more than the 1024 kept plus the 64 of lag the stack may have. */
const BURIED = 1200;

after(() => databases.dispose());

async function headOf(rpcUrl: string): Promise<number> {
  return Number(await rpc(rpcUrl, "eth_blockNumber"));
}

async function metric(stack: StackBesideDevnet, name: string, chain: string): Promise<number | undefined> {
  const text = await (await fetch(`${stack.operator}/metrics`)).text();
  const line = text
    .split("\n")
    .find((entry) => entry.startsWith(`${name}{`) && entry.includes(`chain="${chain}"`));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

for (const { driver, skip } of databases.drivers) {
  describe(`a reorganisation below every kept block, hub start on ${driver}`, { skip }, () => {
    test("/readyz on the operator listener answers 503 naming the chain, and hub admin reindex brings it back with the new branch in the views", async () => {
      // Chains of its own: the reorganisation below leaves the destination's clock far ahead.
      const devnet: OrderDevnet = await startOrderDevnet();
      const target = await databases.prepareDataDir(driver);
      let stack: StackBesideDevnet | undefined;
      try {
        const env = stackEnv({
          devnet,
          catalogFile: await writeDevnetCatalog(devnet, target.dataDir),
          dataDir: target.dataDir,
          ...(target.databaseUrl ? { databaseUrl: target.databaseUrl } : {}),
        });
        stack = await startStackBesideDevnet(env);
        const running = stack;
        const { key } = await createOrgWithKey(env, `reorg-beyond-${driver}`);
        const destination = devnet.destination;

        const opened = await devnet.newOrder({ fillDeadlineSeconds: 3600, expiresSeconds: 7200 });
        await devnet.open(opened);
        // The branch point: anvil's own reorganisation re-executes on the state it has, so the new
        // branch grows from a snapshot instead (evm_revert, then other blocks mined).
        const branchPoint = await rpc(destination.rpcUrl, "evm_snapshot");
        const fill = await devnet.fill(opened);
        const fillReceipt = (await rpc(destination.rpcUrl, "eth_getTransactionReceipt", [fill.txHash])) as {
          blockNumber: string;
          blockHash: string;
        };
        const fillBlock = Number(fillReceipt.blockNumber);
        await rpc(destination.rpcUrl, "anvil_mine", [`0x${BURIED.toString(16)}`]);
        await rpc(devnet.origin.rpcUrl, "anvil_mine", ["0x2"]);
        const head = await headOf(destination.rpcUrl);
        const indexed = await pollUntil(
          "the stack indexes the fill and the blocks on top of it",
          async () => {
            const view = await fillViewOf(running.baseUrl, key, opened.orderId);
            const mark = view.watermarks.find((w) => w.chainDomain === destination.chainDomain);
            return view.fills.length === 1 && mark && mark.blockNumber >= head ? view : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 250 },
        );
        assert.equal(indexed.fills[0]?.blockHash, fillReceipt.blockHash);
        assert.equal(indexed.fills[0]?.final, true);

        // Every block from the fill's on is replaced by a longer branch of empty ones: the fill is gone.
        assert.equal(await rpc(destination.rpcUrl, "evm_revert", [branchPoint]), true);
        await rpc(destination.rpcUrl, "anvil_mine", [`0x${(BURIED + 10).toString(16)}`]);
        assert.ok((await headOf(destination.rpcUrl)) > head);
        assert.equal(await rpc(destination.rpcUrl, "eth_getTransactionReceipt", [fill.txHash]), null);

        const held = await pollUntil(
          "the operator listener answers 503 naming the chain",
          async () => {
            const report = await readinessOf(running);
            return report.status === 503 ? report : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 250 },
        );
        assert.equal(held.body.status, "not-ready");
        assert.deepEqual(held.body.notReady, [`reconciler:${destination.chainDomain}`]);
        assert.equal(await metric(running, "hub_chain_reorg_beyond_kept_blocks", destination.chainDomain), 1);
        assert.match(running.output(), /chain reorganised below every kept block/);
        // Stopped, not guessed: the view still shows what was indexed, and a fill on the new branch is
        // not read, until the operator re-indexes.
        const later = await devnet.newOrder({ fillDeadlineSeconds: 3600, expiresSeconds: 7200 });
        await devnet.open(later);
        const laterFill = await devnet.fill(later);
        await rpc(destination.rpcUrl, "anvil_mine", ["0x2"]);
        await rpc(devnet.origin.rpcUrl, "anvil_mine", ["0x2"]);
        await pollUntil(
          "the later order's open is indexed on the origin",
          async () => ((await fillViewOf(running.baseUrl, key, later.orderId)).status ? true : undefined),
          { timeoutMs: 30_000, intervalMs: 250 },
        );
        assert.equal((await readinessOf(running)).status, 503);
        assert.deepEqual((await fillViewOf(running.baseUrl, key, later.orderId)).fills, []);
        const stopped = await fillViewOf(running.baseUrl, key, opened.orderId);
        assert.equal(stopped.fills[0]?.blockHash, fillReceipt.blockHash);

        const from = Math.max(1, fillBlock - 5);
        const reindexed = await hubAdmin(
          env,
          "reindex",
          "--chain",
          destination.chainDomain,
          "--from",
          String(from),
        );
        assert.equal(reindexed.chainDomain, destination.chainDomain);
        assert.equal(reindexed.fromBlock, from);
        assert.equal(reindexed.factsRemoved, 1, "the fill of the replaced branch");

        const ready = await pollUntil(
          "the operator listener answers 200 again",
          async () => {
            const report = await readinessOf(running);
            return report.status === 200 ? report : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 250 },
        );
        assert.deepEqual(ready.body.notReady, []);
        let last: unknown;
        const recovered = await pollUntil(
          () =>
            `the later order's fill shows, final; last ${JSON.stringify(last)}; log ${running
              .output()
              .split("\n")
              .filter((line) => line.includes("reconciler"))
              .slice(-4)
              .join("\n")}`,
          async () => {
            const view = await fillViewOf(running.baseUrl, key, later.orderId);
            last = view;
            return view.fills[0]?.txHash === laterFill.txHash && view.fills[0]?.final ? view : undefined;
          },
          { timeoutMs: 30_000, intervalMs: 250 },
        );
        assert.equal(recovered.status, "FILLED");
        const dropped = await fillViewOf(running.baseUrl, key, opened.orderId);
        assert.deepEqual(dropped.fills, [], "the fill of the replaced branch is gone");
        assert.equal(dropped.status, "OPEN");
        assert.equal(await metric(running, "hub_chain_reorg_beyond_kept_blocks", destination.chainDomain), 0);
      } finally {
        await stack?.end("SIGINT");
        await target.dispose();
        await devnet.stop();
      }
    });
  });
}
