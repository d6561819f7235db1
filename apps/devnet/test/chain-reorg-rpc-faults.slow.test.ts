import assert from "node:assert/strict";
import { performance } from "node:perf_hooks";
import { after, before, describe, test } from "node:test";
import { erc20Abi, parseEther } from "viem";
import { startTestDevnet, type TestDevnet } from "./devnet-test-kit.js";

// The control API's reorganisations and RPC fault knobs, through HTTP on a real devnet (anvil), each
// observed as an integrator's JSON-RPC client sees it.

interface RpcAnswer {
  status: number;
  headers: Headers;
  body: { result?: unknown; error?: { code: number; message: string } } | undefined;
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<RpcAnswer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const text = await response.text();
  let body: RpcAnswer["body"];
  try {
    body = JSON.parse(text) as RpcAnswer["body"];
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body };
}

async function result<T>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const answer = await rpc(url, method, params);
  assert.equal(answer.body?.error, undefined, `${method}: ${answer.body?.error?.message}`);
  return answer.body?.result as T;
}

const hex = (n: number) => `0x${n.toString(16)}`;

interface ReorgAnswer {
  chainId: number;
  forkBlock: string;
  depth: number;
  dropped: string[];
  reincluded: string[];
  blockNumber: string;
  blockHash: string;
}

interface RpcFaultsAnswer {
  chainId: number;
  rpcUrl: string;
  nodeRpcUrl: string;
  faults: Record<string, unknown>;
  stats: { calls: Record<string, number>; faults: Record<string, number> };
}

describe("devnet chain reorganisations and RPC faults through the control API", () => {
  let devnet: TestDevnet;
  let node: string;
  let proxy: string;
  const chainId = 31337;

  before(async () => {
    devnet = await startTestDevnet();
    node = devnet.manifest.chains[0]!.rpcUrl;
    const view = await devnet.call<RpcFaultsAnswer>("GET", `/control/chains/${chainId}/rpc-faults`);
    assert.equal(view.status, 200);
    proxy = view.body.rpcUrl;
  });
  after(async () => {
    await devnet?.stop();
  });

  async function sendTransfer(): Promise<{ hash: `0x${string}`; blockHash: string; blockNumber: bigint }> {
    const client = devnet.clients.get(chainId);
    const wallet = client.wallet(devnet.manifest.users[0]!);
    const hash = await wallet.sendTransaction({
      to: devnet.manifest.users[1]!.address,
      value: parseEther("0.01"),
    });
    const receipt = await client.publicClient.waitForTransactionReceipt({ hash });
    return { hash, blockHash: receipt.blockHash, blockNumber: receipt.blockNumber };
  }

  test("a reorganisation without reinclude drops the transaction: its receipt is null, the head keeps its height", async () => {
    const sent = await sendTransfer();
    const answer = await devnet.call<ReorgAnswer>("POST", `/control/chains/eip155:${chainId}/reorg`, {
      depth: 1,
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.depth, 1);
    assert.deepEqual(answer.body.dropped, [sent.hash]);
    assert.deepEqual(answer.body.reincluded, []);
    assert.equal(answer.body.forkBlock, String(sent.blockNumber - 1n));
    assert.equal(answer.body.blockNumber, String(sent.blockNumber));
    assert.notEqual(answer.body.blockHash, sent.blockHash);
    assert.equal(await result(node, "eth_getTransactionReceipt", [sent.hash]), null);
    const head = await result<{ hash: string }>(node, "eth_getBlockByNumber", ["latest", false]);
    assert.equal(head.hash, answer.body.blockHash);
  });

  test("a reorganisation with reinclude mines the same transaction again in a block with a new hash", async () => {
    const sent = await sendTransfer();
    await devnet.call("POST", `/control/chains/${chainId}/mine`, { blocks: 2 });
    const answer = await devnet.call<ReorgAnswer>("POST", `/control/chains/${chainId}/reorg`, {
      depth: 3,
      reinclude: true,
    });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body.dropped, [sent.hash]);
    assert.deepEqual(answer.body.reincluded, [sent.hash]);
    const receipt = await result<{ blockHash: string; blockNumber: string; status: string }>(
      node,
      "eth_getTransactionReceipt",
      [sent.hash],
    );
    assert.ok(receipt, "the transaction is on chain again");
    assert.equal(receipt.status, "0x1");
    assert.notEqual(receipt.blockHash, sent.blockHash);
    // The same offset from the fork point: the same height, in the new branch.
    assert.equal(BigInt(receipt.blockNumber), sent.blockNumber);
  });

  test("reorg refusals: unknown chain 404, bad body or a depth past genesis 400 VALIDATION_ERROR", async () => {
    const unknown = await devnet.call<{ error: string }>("POST", "/control/chains/999/reorg", { depth: 1 });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, "CHAIN_NOT_FOUND");
    for (const body of [
      { depth: 0 },
      { depth: 1.5 },
      {},
      { depth: 1, reinclude: "yes" },
      { depth: 1, extra: 1 },
    ]) {
      const answer = await devnet.call<{ error: string }>("POST", `/control/chains/${chainId}/reorg`, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error, "VALIDATION_ERROR");
    }
    const head = Number(await result<string>(node, "eth_blockNumber"));
    const tooDeep = await devnet.call<{ error: string; message: string }>(
      "POST",
      `/control/chains/${chainId}/reorg`,
      { depth: head + 1 },
    );
    assert.equal(tooDeep.status, 400);
    assert.equal(tooDeep.body.error, "VALIDATION_ERROR");
    assert.match(tooDeep.body.message, /^depth: /);
  });

  test("the proxy forwards untouched without knobs, and is listed for every EVM chain", async () => {
    assert.equal(devnet.faultRpcUrls.length, devnet.manifest.chains.length);
    assert.equal(devnet.faultRpcUrls[0]?.rpcUrl, proxy);
    assert.notEqual(proxy, node);
    assert.equal(await result(proxy, "eth_chainId"), hex(chainId));
    assert.equal(await result(proxy, "eth_blockNumber"), await result(node, "eth_blockNumber"));
    const view = await devnet.call<RpcFaultsAnswer>("GET", `/control/chains/eip155:${chainId}/rpc-faults`);
    assert.equal(view.body.nodeRpcUrl, node);
    assert.deepEqual(view.body.faults, {});
    assert.ok((view.body.stats.calls.eth_blockNumber ?? 0) >= 1);
  });

  test("rateLimit: 429 with Retry-After for `count` calls, then answers", async () => {
    const set = await devnet.call<RpcFaultsAnswer>("POST", `/control/chains/${chainId}/rpc-faults`, {
      rateLimit: { retryAfterSeconds: 3, count: 2 },
    });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body.faults, { rateLimit: { retryAfterSeconds: 3, count: 2 } });
    for (let i = 0; i < 2; i += 1) {
      const limited = await rpc(proxy, "eth_blockNumber");
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get("retry-after"), "3");
    }
    assert.equal((await rpc(proxy, "eth_blockNumber")).status, 200);
    const view = await devnet.call<RpcFaultsAnswer>("GET", `/control/chains/${chainId}/rpc-faults`);
    assert.equal(view.body.stats.faults["rate-limited"], 2);
    await devnet.call("DELETE", `/control/chains/${chainId}/rpc-faults`);
  });

  test("maxLogRange: a wide eth_getLogs is refused as a provider does, a narrow one answered", async () => {
    const deployBlock = devnet.manifest.chains[0]!.deployBlock;
    await devnet.call("POST", `/control/chains/${chainId}/rpc-faults`, { maxLogRange: 5 });
    const wide = await rpc(proxy, "eth_getLogs", [
      { fromBlock: hex(deployBlock), toBlock: hex(deployBlock + 5) },
    ]);
    assert.equal(wide.body?.error?.code, -32602);
    assert.match(wide.body?.error?.message ?? "", /block range too large/);
    const narrow = await rpc(proxy, "eth_getLogs", [
      { fromBlock: hex(deployBlock), toBlock: hex(deployBlock + 4) },
    ]);
    assert.ok(Array.isArray(narrow.body?.result));
    // Merged with the knobs already set: the style changes, the bound stays.
    const merged = await devnet.call<RpcFaultsAnswer>("POST", `/control/chains/${chainId}/rpc-faults`, {
      rangeStyle: "infura",
    });
    assert.deepEqual(merged.body.faults, { maxLogRange: 5, rangeStyle: "infura" });
    const infura = await rpc(proxy, "eth_getLogs", [{ fromBlock: hex(deployBlock), toBlock: "latest" }]);
    assert.equal(infura.body?.error?.code, -32005);
    await devnet.call("DELETE", `/control/chains/${chainId}/rpc-faults`);
  });

  test("delayMs: every answer is slowed", async () => {
    await devnet.call("POST", `/control/chains/${chainId}/rpc-faults`, { delayMs: 400 });
    const startedAt = performance.now();
    await result(proxy, "eth_blockNumber");
    assert.ok(performance.now() - startedAt >= 390, "answered after the delay");
    await devnet.call("DELETE", `/control/chains/${chainId}/rpc-faults`);
  });

  test("resets: resetEvery resets every n-th connection, resetFraction a share at random, down every one", async () => {
    await devnet.call("POST", `/control/chains/${chainId}/rpc-faults`, { resetEvery: 2 });
    assert.equal((await rpc(proxy, "eth_blockNumber")).status, 200);
    await assert.rejects(rpc(proxy, "eth_blockNumber"), "the second call's connection is reset");
    assert.equal((await rpc(proxy, "eth_blockNumber")).status, 200);

    await devnet.call("DELETE", `/control/chains/${chainId}/rpc-faults`);
    await devnet.call("POST", `/control/chains/${chainId}/rpc-faults`, { resetFraction: 0.5 });
    let reset = 0;
    for (let i = 0; i < 40; i += 1)
      if (
        await rpc(proxy, "eth_chainId").then(
          () => false,
          () => true,
        )
      )
        reset += 1;
    // Binomial(40, 0.5): outside 6..34 has a probability under 1e-5.
    assert.ok(reset >= 6 && reset <= 34, `${reset} of 40 reset`);

    await devnet.call("DELETE", `/control/chains/${chainId}/rpc-faults`);
    await devnet.call("POST", `/control/chains/${chainId}/rpc-faults`, { down: true });
    await assert.rejects(rpc(proxy, "eth_chainId"));
    await devnet.call("POST", `/control/chains/${chainId}/rpc-faults`, { down: false, unavailable: true });
    assert.equal((await rpc(proxy, "eth_chainId")).status, 503);
    await devnet.call("DELETE", `/control/chains/${chainId}/rpc-faults`);
    assert.equal((await rpc(proxy, "eth_chainId")).status, 200);
  });

  test("lagBlocks: a lagging node's head is behind, and its eth_getLogs answers [] past that head", async () => {
    const client = devnet.clients.get(chainId);
    const usdc = devnet.manifest.chains[0]!.contracts.usdc;
    const hash = await client.wallet(devnet.manifest.users[2]!).writeContract({
      address: usdc,
      abi: erc20Abi,
      functionName: "transfer",
      args: [devnet.manifest.users[3]!.address, 1n],
    });
    const receipt = await client.publicClient.waitForTransactionReceipt({ hash });
    const logBlock = hex(Number(receipt.blockNumber));
    await devnet.call("POST", `/control/chains/${chainId}/mine`, { blocks: 1 });
    const head = Number(await result<string>(node, "eth_blockNumber"));

    await devnet.call("POST", `/control/chains/${chainId}/rpc-faults`, { lagBlocks: 2 });
    assert.equal(Number(await result<string>(proxy, "eth_blockNumber")), head - 2);
    const filter = { fromBlock: logBlock, toBlock: logBlock, address: usdc };
    assert.equal((await result<unknown[]>(node, "eth_getLogs", [filter])).length, 1, "the node has the log");
    assert.deepEqual(await result(proxy, "eth_getLogs", [filter]), [], "the lagging node has not seen it");
    await devnet.call("DELETE", `/control/chains/${chainId}/rpc-faults`);
    assert.equal((await result<unknown[]>(proxy, "eth_getLogs", [filter])).length, 1);
  });

  test("rpc-faults refusals, and POST /control/reset and DELETE /control/faults clear every chain's knobs", async () => {
    const unknown = await devnet.call<{ error: string }>("POST", "/control/chains/1/rpc-faults", {
      delayMs: 1,
    });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, "CHAIN_NOT_FOUND");
    for (const body of [{ nope: true }, { delayMs: -1 }, { resetFraction: 2 }, { rateLimit: {} }]) {
      const answer = await devnet.call<{ error: string }>(
        "POST",
        `/control/chains/${chainId}/rpc-faults`,
        body,
      );
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.error, "VALIDATION_ERROR");
    }
    const other = devnet.manifest.chains[1]!.chainId;
    await devnet.call("POST", `/control/chains/${chainId}/rpc-faults`, { unavailable: true });
    await devnet.call("POST", `/control/chains/${other}/rpc-faults`, { lagBlocks: 1 });
    const read = await devnet.call<{ rpc: Record<string, unknown> }>("GET", "/control/faults");
    assert.deepEqual(read.body.rpc, { [chainId]: { unavailable: true }, [other]: { lagBlocks: 1 } });

    const reset = await devnet.call("POST", "/control/reset");
    assert.equal(reset.status, 200);
    assert.equal((await rpc(proxy, "eth_chainId")).status, 200);
    assert.deepEqual((await devnet.call<{ rpc: unknown }>("GET", "/control/faults")).body.rpc, {
      [chainId]: {},
      [other]: {},
    });

    await devnet.call("POST", `/control/chains/${other}/rpc-faults`, { unavailable: true });
    const cleared = await devnet.call<{ rpc: unknown }>("DELETE", "/control/faults");
    assert.deepEqual(cleared.body.rpc, {});
    assert.deepEqual(
      (await devnet.call<RpcFaultsAnswer>("GET", `/control/chains/${other}/rpc-faults`)).body.faults,
      {},
    );
  });
});
