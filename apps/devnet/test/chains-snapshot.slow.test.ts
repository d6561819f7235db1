import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import type { DevnetManifest } from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import type { Hex } from "viem";
import { type DevnetChains, startDevnetChains } from "../src/chains/index.js";
import { jsonRpcBatch } from "../src/chains/json-rpc-batch.js";

/** EIP-2935's system contract: it stores parent block hashes, which differ between any two runs. */
const blockHashHistory = "0x0000f90827f1c53a10cb7a02335b175320002935";

interface ChainState {
  blockNumber: string;
  /** Every account anvil holds: nonce, balance, code and storage. */
  accounts: Record<string, unknown>;
  /** Every log since genesis, without the block hashes and times that differ between two runs. */
  logs: unknown[];
  transactionsPerBlock: number[];
}

async function chainState(rpcUrl: string): Promise<ChainState> {
  const [blockNumber, dump] = (await jsonRpcBatch(rpcUrl, [
    { method: "eth_blockNumber", params: [] },
    { method: "anvil_dumpState", params: [] },
  ])) as [Hex, Hex];
  const state = JSON.parse(gunzipSync(Buffer.from(dump.slice(2), "hex")).toString()) as {
    accounts: Record<string, { storage: Record<string, string> }>;
  };
  const history = state.accounts[blockHashHistory];
  assert.ok(history);
  history.storage = {};
  const [logs, ...blocks] = (await jsonRpcBatch(rpcUrl, [
    { method: "eth_getLogs", params: [{ fromBlock: "0x0", toBlock: blockNumber }] },
    ...Array.from({ length: Number(blockNumber) + 1 }, (_, n) => ({
      method: "eth_getBlockByNumber",
      params: [`0x${n.toString(16)}`, false],
    })),
  ])) as [Record<string, unknown>[], ...{ transactions: string[] }[]];
  return {
    blockNumber,
    accounts: state.accounts,
    logs: logs.map(({ blockHash: _blockHash, blockTimestamp: _blockTimestamp, ...log }) => log),
    transactionsPerBlock: blocks.map((block) => block.transactions.length),
  };
}

const withoutRpcUrls = (manifest: DevnetManifest) => ({
  ...manifest,
  chains: manifest.chains.map(({ rpcUrl: _rpcUrl, ...chain }) => chain),
});

describe("devnet chains started from a snapshot", () => {
  let cache: string;
  let deployed: DevnetChains;
  let fromSnapshot: DevnetChains;
  let snapshotSeconds: number;

  before(async () => {
    cache = mkdtempSync(join(tmpdir(), "hub-anvil-states-"));
    // The first start with a cache deploys and keeps the state; the one after the deployment loads it.
    const first = await startDevnetChains({ snapshotCache: cache });
    snapshotSeconds = await latestBlockSeconds(first.manifest.chains[0]!.rpcUrl);
    await first.stop();
    await pollUntil("the clock past the snapshot's second", () => Date.now() / 1000 > snapshotSeconds + 1, {
      timeoutMs: 5000,
      intervalMs: 50,
    });
    deployed = await startDevnetChains({ snapshotCache: false });
    fromSnapshot = await startDevnetChains({ snapshotCache: cache });
  });

  after(async () => {
    await Promise.all([deployed?.stop(), fromSnapshot?.stop()]);
    rmSync(cache, { recursive: true, force: true });
  });

  it("keeps one finished snapshot per chain and nothing half-written", () => {
    const names = readdirSync(cache);
    assert.equal(names.length, 2);
    for (const name of names) {
      assert.match(name, /^chain-[0-9a-f]{24}$/);
      assert.ok(existsSync(join(cache, name, "state.json")));
      assert.ok(existsSync(join(cache, name, "chain.json")));
    }
  });

  it("gives the same manifest as a deployment: addresses, accounts and deploy block", () => {
    assert.deepEqual(withoutRpcUrls(fromSnapshot.manifest), withoutRpcUrls(deployed.manifest));
  });

  it("gives the same state as a deployment on every chain: code, storage, balances, nonces, blocks and logs", async () => {
    for (const [i, chain] of deployed.manifest.chains.entries()) {
      const expected = await chainState(chain.rpcUrl);
      const actual = await chainState(fromSnapshot.manifest.chains[i]!.rpcUrl);
      assert.ok(Object.keys(expected.accounts).length > devnetContractCount(deployed.manifest));
      assert.ok(expected.logs.length > 0);
      assert.deepEqual(actual, expected);
    }
  });

  it("puts the head of a snapshot chain at the current time, not the snapshot's", async () => {
    const deployedAt = await latestBlockSeconds(deployed.manifest.chains[0]!.rpcUrl);
    assert.ok(deployedAt > snapshotSeconds);
    for (const chain of fromSnapshot.manifest.chains)
      assert.ok((await latestBlockSeconds(chain.rpcUrl)) >= deployedAt);
  });

  it("mines new transactions on a snapshot chain at the next block, as on a deployed one", async () => {
    for (const chains of [deployed, fromSnapshot]) {
      const { rpcUrl } = chains.manifest.chains[0]!;
      const { users } = chains.manifest;
      const [before] = (await jsonRpcBatch(rpcUrl, [{ method: "eth_blockNumber", params: [] }])) as Hex[];
      const [hash] = (await jsonRpcBatch(rpcUrl, [
        {
          method: "eth_sendTransaction",
          params: [{ from: users[0]!.address, to: users[1]!.address, value: "0x1" }],
        },
      ])) as Hex[];
      const [receipt] = (await jsonRpcBatch(rpcUrl, [
        { method: "eth_getTransactionReceipt", params: [hash] },
      ])) as { status: Hex; blockNumber: Hex }[];
      assert.equal(receipt!.status, "0x1");
      assert.equal(Number(receipt!.blockNumber), Number(before) + 1);
    }
  });
});

async function latestBlockSeconds(rpcUrl: string): Promise<number> {
  const [block] = (await jsonRpcBatch(rpcUrl, [
    { method: "eth_getBlockByNumber", params: ["latest", false] },
  ])) as {
    timestamp: Hex;
  }[];
  return Number(block!.timestamp);
}

function devnetContractCount(manifest: DevnetManifest): number {
  return Object.keys(manifest.chains[0]!.contracts).length;
}
