import assert from "node:assert/strict";
import { test } from "node:test";
import { startDevnetChains } from "../src/chains/index.js";
import { childProcesses, processAlive, startTestDevnet } from "./devnet-test-kit.js";

const anvilsOf = async (pid: number) => (await childProcesses(pid, "anvil")).sort((a, b) => a - b);

test("a devnet given chains already started runs on them, starts no other anvil and stops them with itself", async () => {
  const before = await anvilsOf(process.pid);
  const chains = await startDevnetChains({ rpcPorts: [0, 0] });
  const started = (await anvilsOf(process.pid)).filter((pid) => !before.includes(pid));
  assert.equal(started.length, 2);
  const devnet = await startTestDevnet({ chains }).catch(async (error: unknown) => {
    await chains.stop();
    throw error;
  });
  try {
    assert.deepEqual(devnet.manifest.chains, chains.manifest.chains);
    assert.deepEqual(
      await anvilsOf(process.pid),
      [...before, ...started].sort((a, b) => a - b),
    );
    assert.equal((await devnet.call("GET", "/healthz")).status, 200);
    const head = await devnet.clients.get(chains.manifest.chains[0]!.chainId).publicClient.getBlockNumber();
    assert.ok(head > 0n);
  } finally {
    await devnet.stop();
  }
  for (const pid of started) assert.equal(await processAlive(pid), false, `anvil ${pid} still running`);
});
