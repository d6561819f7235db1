import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { manualClock } from "./hub-fixture.js";
import { createSolanaBlockhashChecker } from "../src/chains/solana/solana-blockhash-checker.js";

describe("the Solana blockhash check", () => {
  const asked: string[] = [];
  let rpcUrl = "";
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const { params } = JSON.parse(text) as { params: [string] };
      asked.push(params[0]);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          result: { context: { slot: 1 }, value: params[0] === "good" },
        }),
      );
    });
  });

  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    rpcUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("a round's answers make one call per distinct blockhash, and the answer is reused only briefly", async () => {
    const clock = manualClock();
    const checker = createSolanaBlockhashChecker({ chains: [{ chainDomain: "solana:x", rpcUrl }], clock });
    asked.length = 0;
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => checker.check("solana:x", "good")),
      checker.check("solana:x", "stale"),
    ]);
    assert.deepEqual(answers.slice(0, 8), Array(8).fill({ kind: "valid" }));
    assert.deepEqual(answers[8], { kind: "invalid" });
    assert.deepEqual(asked.sort(), ["good", "stale"]);
    clock.advance(2000);
    await checker.check("solana:x", "good");
    assert.equal(asked.length, 3, "asked again once the cache time has passed");
  });

  test("a chain the hub has no RPC for, or an RPC that does not answer, is unavailable", async () => {
    const checker = createSolanaBlockhashChecker({
      chains: [{ chainDomain: "solana:down", rpcUrl: "http://127.0.0.1:1" }],
      clock: manualClock(),
    });
    assert.equal((await checker.check("solana:other", "good")).kind, "unavailable");
    assert.equal((await checker.check("solana:down", "good")).kind, "unavailable");
  });
});
