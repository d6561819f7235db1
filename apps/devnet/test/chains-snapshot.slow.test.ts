import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { gunzipSync } from "node:zlib";
import {
  bridgeAbi,
  committeeOracleAbi,
  type DevnetChain,
  type DevnetManifest,
  devnetErc20Abi,
  devnetUsdcAbi,
  inputSettlerEscrowAbi,
  swapRouterAbi,
  userProxyAbi,
} from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import { type Address, type Hex, maxUint256 } from "viem";
import { type DevnetChains, devnetFunding, startDevnetChains } from "../src/chains/index.js";
import { jsonRpcBatch } from "../src/chains/json-rpc-batch.js";
import { publicClientFor } from "./chains-fixture.js";

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

/** What the devnet's services and the hub read from the contracts, by name. */
async function contractReads(chain: DevnetChain, manifest: DevnetManifest): Promise<Record<string, unknown>> {
  const client = publicClientFor(chain);
  const { contracts } = chain;
  const reads: Record<string, unknown> = {};
  const holders: [string, Address][] = [
    ...manifest.users.map((user, i): [string, Address] => [`user${i}`, user.address]),
    ...manifest.solvers.map((solver, i): [string, Address] => [`solver${i}`, solver.address]),
    ["swapRouter", contracts.swapRouter],
    ["bridge", contracts.bridge],
    ["deployer", manifest.deployer.address],
  ];
  for (const [name, address] of holders) {
    reads[`${name}.native`] = await client.getBalance({ address });
    reads[`${name}.nonce`] = await client.getTransactionCount({ address });
  }
  for (const token of ["usdc", "token", "undeclaredToken", "wrappedNative"] as const) {
    const address = contracts[token];
    for (const functionName of ["name", "symbol", "decimals", "totalSupply", "minter"] as const)
      reads[`${token}.${functionName}`] = await client.readContract({
        address,
        abi: devnetErc20Abi,
        functionName,
      });
    for (const [name, holder] of holders)
      reads[`${token}.balanceOf(${name})`] = await client.readContract({
        address,
        abi: devnetErc20Abi,
        functionName: "balanceOf",
        args: [holder],
      });
    for (const [i, solver] of manifest.solvers.entries())
      reads[`${token}.allowance(solver${i}, outputSettler)`] = await client.readContract({
        address,
        abi: devnetErc20Abi,
        functionName: "allowance",
        args: [solver.address, contracts.outputSettler],
      });
  }
  reads["usdc.DOMAIN_SEPARATOR"] = await client.readContract({
    address: contracts.usdc,
    abi: devnetUsdcAbi,
    functionName: "DOMAIN_SEPARATOR",
  });
  for (const functionName of ["members", "threshold", "domainSeparator"] as const)
    reads[`committeeOracle.${functionName}`] = await client.readContract({
      address: contracts.committeeOracle,
      abi: committeeOracleAbi,
      functionName,
    });
  for (const functionName of ["tokenIn", "tokenOut", "rateNumerator", "rateDenominator"] as const)
    reads[`swapRouter.${functionName}`] = await client.readContract({
      address: contracts.swapRouter,
      abi: swapRouterAbi,
      functionName,
    });
  for (const functionName of ["escrow", "swapRouter", "wrappedNative"] as const)
    reads[`userProxy.${functionName}`] = await client.readContract({
      address: contracts.userProxy,
      abi: userProxyAbi,
      functionName,
    });
  for (const functionName of ["relayer", "depositCount"] as const)
    reads[`bridge.${functionName}`] = await client.readContract({
      address: contracts.bridge,
      abi: bridgeAbi,
      functionName,
    });
  reads["inputSettlerEscrow.PERMIT2"] = await client.readContract({
    address: contracts.inputSettlerEscrow,
    abi: inputSettlerEscrowAbi,
    functionName: "PERMIT2",
  });
  for (const [name, address] of Object.entries(contracts))
    reads[`${name}.code`] = await client.getCode({ address });
  return reads;
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
  /** Each deployed chain's contract reads before any test sends a transaction. */
  let deployedReads: Record<string, unknown>[];

  before(async () => {
    cache = mkdtempSync(join(tmpdir(), "hub-anvil-states-"));
    // The first start with an empty cache deploys and keeps the state; a later one loads it.
    const first = await startDevnetChains({ snapshotCache: cache });
    snapshotSeconds = await latestBlockSeconds(first.manifest.chains[0]!.rpcUrl);
    await first.stop();
    await pollUntil("the clock past the snapshot's second", () => Date.now() / 1000 > snapshotSeconds + 1, {
      timeoutMs: 5000,
      intervalMs: 50,
    });
    deployed = await startDevnetChains({ snapshotCache: false });
    fromSnapshot = await startDevnetChains({ snapshotCache: cache });
    deployedReads = await Promise.all(
      deployed.manifest.chains.map((chain) => contractReads(chain, deployed.manifest)),
    );
  });

  after(async () => {
    await Promise.all([deployed?.stop(), fromSnapshot?.stop()]);
    rmSync(cache, { recursive: true, force: true });
  });

  it("keeps one finished snapshot per chain and nothing half-written", () => {
    const names = readdirSync(cache).sort();
    assert.equal(names.length, 2);
    for (const [i, name] of names.entries()) {
      assert.match(name, new RegExp(`^chain-${deployed.manifest.chains[i]!.chainId}-[0-9a-f]{24}$`));
      assert.ok(existsSync(join(cache, name, "state.json")));
      assert.ok(existsSync(join(cache, name, "chain.json")));
    }
  });

  it("gives the same manifest as a deployment: addresses, accounts and deploy block", () => {
    assert.deepEqual(withoutRpcUrls(fromSnapshot.manifest), withoutRpcUrls(deployed.manifest));
  });

  it("gives the same contracts as a deployment: code at every address, balances, allowances and settings", async () => {
    for (const [i, chain] of deployed.manifest.chains.entries()) {
      const expected = deployedReads[i]!;
      const actual = await contractReads(fromSnapshot.manifest.chains[i]!, fromSnapshot.manifest);
      for (const name of Object.keys(chain.contracts)) assert.notEqual(expected[`${name}.code`], undefined);
      assert.equal(expected["usdc.balanceOf(user0)"], devnetFunding.user.usdc);
      assert.equal(expected["wrappedNative.balanceOf(solver1)"], devnetFunding.solver.wrappedNative);
      assert.equal(expected["token.allowance(solver0, outputSettler)"], maxUint256);
      assert.equal(expected["bridge.native"], devnetFunding.bridge.native);
      assert.equal(expected["committeeOracle.threshold"], 2n);
      assert.deepEqual(actual, expected);
    }
  });

  it("gives the same state as a deployment on every chain: code, storage, balances, nonces, blocks and logs", async () => {
    for (const [i, chain] of deployed.manifest.chains.entries()) {
      const expected = await chainState(chain.rpcUrl);
      const actual = await chainState(fromSnapshot.manifest.chains[i]!.rpcUrl);
      assert.ok(Object.keys(expected.accounts).length > Object.keys(chain.contracts).length);
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
      // Under automine anvil mines the transaction after it answers eth_sendTransaction: the receipt may lag.
      const receipt = await pollUntil(
        "the transfer's receipt",
        async () =>
          (
            (await jsonRpcBatch(rpcUrl, [{ method: "eth_getTransactionReceipt", params: [hash] }])) as ({
              status: Hex;
              blockNumber: Hex;
            } | null)[]
          )[0],
        { timeoutMs: 5000, intervalMs: 20 },
      );
      assert.equal(receipt!.status, "0x1");
      assert.equal(Number(receipt!.blockNumber), Number(before) + 1);
    }
  });

  it("deploys again over a snapshot anvil cannot load, and keeps the new deployment in its place", async () => {
    const broken = mkdtempSync(join(tmpdir(), "hub-anvil-states-"));
    try {
      const first = await startDevnetChains({ snapshotCache: broken });
      await first.stop();
      const [name] = readdirSync(broken).sort();
      const stateFile = join(broken, name!, "state.json");
      writeFileSync(stateFile, "{ not a state");
      const again = await startDevnetChains({ snapshotCache: broken });
      try {
        assert.deepEqual(withoutRpcUrls(again.manifest), withoutRpcUrls(deployed.manifest));
        for (const [i, chain] of again.manifest.chains.entries())
          assert.deepEqual(await contractReads(chain, again.manifest), deployedReads[i]);
      } finally {
        await again.stop();
      }
      assert.deepEqual(readdirSync(broken).sort(), readdirSync(cache).sort());
      assert.doesNotThrow(() => JSON.parse(readFileSync(stateFile, "utf8")));
    } finally {
      rmSync(broken, { recursive: true, force: true });
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
