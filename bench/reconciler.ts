// Reconciler benchmark: blocks indexed per second over anvil with a long mined history holding the
// devnet's contracts and a few orders, read through a counting JSON-RPC proxy (no faults), and the
// RPC calls per 1,000 blocks; then the time from a reorganisation to a correct fill view (by HTTP on
// the hub app, ticks back to back: a running reconciler adds up to one poll interval), for a fill
// dropped and for a fill re-included in a new block. `npm run bench -- reconciler` (take both slots:
// /work/bin/slot --all).
// Knobs: BENCH_RECONCILER_BLOCKS (mined history, default 100000), BENCH_RECONCILER_ORDERS (default 4).
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { systemClock } from "@hub/clock";
import type { OnchainFill } from "@hub/contract";
import { createTestDatabases } from "@hub/store";
import { pino } from "pino";
import { createRpcFaultProxy } from "../apps/devnet/src/rpc-proxy/index.js";
import { createReconciler } from "../apps/hub/src/reconciler/create-reconciler.js";
import { call, createTestHubApp, envelopeOf } from "../apps/hub/test/hub-fixture.js";
import { type OpenedOrder, rpc, startOrderDevnet } from "../apps/hub/test/reconciler-devnet.js";

export async function run(): Promise<object> {
  const blocks = Number(process.env.BENCH_RECONCILER_BLOCKS ?? 100_000);
  const orders = Number(process.env.BENCH_RECONCILER_ORDERS ?? 4);
  const loadBefore = loadavg().map((n) => Number(n.toFixed(2)));
  const devnet = await startOrderDevnet();
  const databases = createTestDatabases({ databaseUrl: undefined });
  const db = await databases.open("pglite");
  const proxies: Awaited<ReturnType<typeof createRpcFaultProxy>>[] = [];
  try {
    // Half the history before the orders and half after, on both chains, mined in chunks: one
    // anvil_mine of 50,000 blocks outlasts fetch's 300 s header timeout on a loaded machine.
    const miningStarted = performance.now();
    const mine = async (count: number) => {
      for (const chain of [devnet.origin, devnet.destination]) {
        for (let left = count; left > 0; left -= 2000)
          await rpc(chain.rpcUrl, "anvil_mine", [`0x${Math.min(left, 2000).toString(16)}`]);
      }
    };
    await mine(Math.floor(blocks / 2));
    for (let i = 0; i < orders; i++) {
      const opened = await devnet.newOrder();
      await devnet.open(opened);
      await devnet.fill(opened);
    }
    await mine(Math.floor(blocks / 2));
    const miningSeconds = (performance.now() - miningStarted) / 1000;
    const chains = [];
    for (const chain of devnet.reconcilerChains()) {
      const proxy = await createRpcFaultProxy({ target: chain.rpcUrl });
      proxies.push(proxy);
      chains.push({ ...chain, rpcUrl: proxy.url, rpcUrls: [proxy.url] });
    }
    const heads = await Promise.all(
      chains.map(async (chain) => Number((await rpc(chain.rpcUrl, "eth_blockNumber")) as string)),
    );
    const toIndex = chains.reduce((sum, chain, i) => sum + (heads[i]! - chain.startBlock + 1), 0);
    for (const proxy of proxies) proxy.resetStats();
    const reconciler = createReconciler({
      sql: db.sql,
      chains,
      clock: systemClock,
      logger: pino({ level: "silent" }),
      confirmations: 0,
    });
    const started = performance.now();
    let ticks = 0;
    for (;;) {
      const result = await reconciler.tick();
      ticks += 1;
      const failed = result.chains.find((chain) => chain.error);
      if (failed) throw new Error(`${failed.chainDomain}: ${failed.error}`);
      if (result.chains.every((chain) => chain.ranges === 0)) break;
    }
    const seconds = (performance.now() - started) / 1000;
    const calls: Record<string, number> = {};
    for (const proxy of proxies) {
      for (const [method, count] of Object.entries(proxy.stats().calls))
        calls[method] = (calls[method] ?? 0) + count;
    }
    const totalCalls = Object.values(calls).reduce((a, b) => a + b, 0);

    // A fresh fill, indexed, then reorganised away (depth 1) or re-mined in a new block: ticks run
    // back to back until the fill view by HTTP says so.
    const hub = createTestHubApp({ sql: db.sql });
    const fillView = async (orderId: string) =>
      envelopeOf(await call(hub, "GET", `/v1/onchain/${orderId}/fill`)).data as OnchainFill;
    const reorgToView = async (
      reinclude: boolean,
    ): Promise<{ ms: number | null; ticks: number; wrongView?: unknown }> => {
      const opened: OpenedOrder = await devnet.newOrder();
      await devnet.open(opened);
      const fill = await devnet.fill(opened);
      await reconciler.tick();
      const before = (await fillView(opened.orderId)).fills[0];
      if (before?.txHash !== fill.txHash)
        throw new Error("the fill was not indexed before the reorganisation");
      const pairs = reinclude
        ? [[await rpc(devnet.destination.rpcUrl, "eth_getRawTransactionByHash", [fill.txHash]), 0]]
        : [];
      const reorgStarted = performance.now();
      await rpc(devnet.destination.rpcUrl, "anvil_reorg", [1, pairs]);
      const receipt = (await rpc(devnet.destination.rpcUrl, "eth_getTransactionReceipt", [fill.txHash])) as {
        blockHash: string;
      } | null;
      let fills: OnchainFill["fills"] = [];
      for (let ticks = 1; ticks <= 50; ticks++) {
        const result = await reconciler.tick();
        const failed = result.chains.find((chain) => chain.error);
        if (failed) throw new Error(`${failed.chainDomain}: ${failed.error}`);
        fills = (await fillView(opened.orderId)).fills;
        const correct = reinclude
          ? fills.length === 1 &&
            fills[0]?.txHash === fill.txHash &&
            fills[0]?.blockHash === receipt?.blockHash
          : fills.length === 0;
        if (correct) return { ms: Math.round(performance.now() - reorgStarted), ticks };
      }
      // Not right after 50 ticks: reported, not thrown, so the sync figures of the run are kept.
      return {
        ms: null,
        ticks: 50,
        wrongView: { fills, receiptBlockHash: receipt?.blockHash ?? null, before: before.blockHash },
      };
    };
    const dropped = await reorgToView(false);
    const reincluded = await reorgToView(true);
    await reconciler.stop();
    await hub.close();
    return {
      chains: chains.length,
      blocksIndexed: toIndex,
      orders,
      ticks,
      seconds: Number(seconds.toFixed(2)),
      miningSeconds: Number(miningSeconds.toFixed(1)),
      blocksPerSecond: Math.round(toIndex / seconds),
      rpcCallsPer1000Blocks: Number(((totalCalls / toIndex) * 1000).toFixed(2)),
      rpcCalls: calls,
      reorgToCorrectViewMs: { dropped: dropped.ms, reincluded: reincluded.ms },
      reorgTicks: { dropped: dropped.ticks, reincluded: reincluded.ticks },
      ...(dropped.wrongView || reincluded.wrongView
        ? { reorgWrongView: { dropped: dropped.wrongView, reincluded: reincluded.wrongView } }
        : {}),
      loadavg: { before: loadBefore, after: loadavg().map((n) => Number(n.toFixed(2))) },
    };
  } finally {
    for (const proxy of proxies) await proxy.close();
    await devnet.stop();
    await db.dispose();
    await databases.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(JSON.stringify(await run(), null, 2));
  process.exit(0);
}
