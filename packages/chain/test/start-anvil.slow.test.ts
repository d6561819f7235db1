import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, it } from "node:test";
import { pollUntil } from "@hub/test-support";
import { createPublicClient, hashDomain, http, parseAbi } from "viem";
import { installPermit2, PERMIT2_ADDRESS, type RunningAnvil, startAnvil } from "../src/index.js";

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("startAnvil and installPermit2", () => {
  const anvils: RunningAnvil[] = [];
  before(async () => {
    anvils.push(...(await Promise.all([startAnvil({ chainId: 31337 }), startAnvil({ chainId: 31338 })])));
  });
  after(async () => {
    await Promise.all(anvils.map((anvil) => anvil.stop()));
  });

  it("two anvils on port 0 get distinct free ports, answer with their chain ids, and the pid is the node's", async () => {
    const [a, b] = anvils as [RunningAnvil, RunningAnvil];
    assert.notEqual(a.port, b.port);
    for (const [anvil, chainId] of [
      [a, 31337],
      [b, 31338],
    ] as const) {
      assert.equal(await createPublicClient({ transport: http(anvil.rpcUrl) }).getChainId(), chainId);
      assert.ok(isRunning(anvil.pid));
    }
  });

  it("Permit2's domain separator is recomputed for each chain id, including anvil's default 31337", async () => {
    for (const [anvil, chainId] of [
      [anvils[0]!, 31337],
      [anvils[1]!, 31338],
    ] as const) {
      const client = createPublicClient({ transport: http(anvil.rpcUrl) });
      await installPermit2(client);
      const separator = await client.readContract({
        address: PERMIT2_ADDRESS,
        abi: parseAbi(["function DOMAIN_SEPARATOR() view returns (bytes32)"]),
        functionName: "DOMAIN_SEPARATOR",
      });
      const expected = hashDomain({
        domain: { name: "Permit2", chainId: BigInt(chainId), verifyingContract: PERMIT2_ADDRESS },
        types: {
          EIP712Domain: [
            { name: "name", type: "string" },
            { name: "chainId", type: "uint256" },
            { name: "verifyingContract", type: "address" },
          ],
        },
      });
      assert.equal(separator, expected);
    }
  });

  it("stop ends the anvil process and frees its port", async () => {
    const anvil = await startAnvil({ chainId: 31339 });
    await anvil.stop();
    assert.equal(isRunning(anvil.pid), false);
    await assert.rejects(fetch(anvil.rpcUrl, { method: "POST" }));
  });
  it("an anvil outlives no parent: killing its node process with SIGKILL ends the anvil too", {
    skip: process.platform !== "linux",
  }, async () => {
    const script = `import { startAnvil } from ${JSON.stringify(new URL("../src/start-anvil.ts", import.meta.url).href)};
const anvil = await startAnvil({ chainId: 31340 });
console.log("pid " + anvil.pid);
setInterval(() => {}, 1000);`;
    const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    parent.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const pid = await pollUntil(
      "the child anvil's pid",
      () => {
        const match = /pid (\d+)/.exec(output);
        return match ? Number(match[1]) : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 50 },
    );
    try {
      assert.ok(isRunning(pid));
      parent.kill("SIGKILL");
      await pollUntil("the child anvil to exit", () => (isRunning(pid) ? undefined : true), {
        timeoutMs: 5_000,
        intervalMs: 50,
      });
    } finally {
      if (isRunning(pid)) process.kill(pid, "SIGKILL");
    }
  });
});
