import assert from "node:assert/strict";
import { test } from "node:test";
import { exampleHarness, stepsOf } from "./example-harness.js";

// The Solana examples run as a newcomer runs them (`npm run example -- solana-to-evm|evm-to-solana`)
// against a stack started as `npm start` starts it: the SDK's end-to-end tests of the Solana lane, both
// directions, on the devnet's EVM chains and its Solana stand-in.
const harness = exampleHarness({ dataDirPrefix: "hub-solana-examples-", timeoutMs: 180_000 });

const examples = [
  {
    lane: "solana-to-evm",
    wire: "oif-escrow-nonevm",
    steps: ["stack", "solana", "quote", "signature", "ack", "state", "money", "balance", "RESULT"],
  },
  {
    lane: "evm-to-solana",
    wire: "aggregator-gasless",
    steps: ["stack", "solana", "quote", "signature", "ack", "state", "money", "balance", "RESULT"],
  },
];

for (const { lane, wire, steps } of examples) {
  test(`npm run example -- ${lane}: ${wire} submission, settled on chain, the recipient received the quoted output, listed SETTLED`, async () => {
    const lines = await harness.runExample(lane);
    assert.deepEqual(stepsOf(lines), steps, lines.join("\n"));
    const result = JSON.parse(lines.at(-1)!.replace(/^RESULT /, ""));
    assert.equal(result.lane, wire);
    assert.deepEqual([result.status, result.filled, result.settled], ["SETTLED", true, true]);
    assert.ok(BigInt(result.quoted) > 0n, lines.join("\n"));
    assert.equal(result.received, result.quoted, "the recipient's balance grew by the quoted output");
    assert.deepEqual(result.paid, [result.quoted], "the fill view's one fill paid the quoted output");
    if (lane === "solana-to-evm") {
      assert.match(
        lines.find((line) => line.startsWith("signature"))!,
        /\(97 bytes\)$/,
        "the Ed25519 envelope",
      );
      assert.ok(BigInt(result.spent) > 0n, "the user's USDC left for the escrow's vault");
    }

    const { hubOrderId, page } = await harness.listedOrders(lines);
    assert.deepEqual(
      page.orders.map((order) => [order.orderId, order.lane, order.onchainOrderId, order.chain?.status]),
      [[hubOrderId, wire, result.orderId, "SETTLED"]],
    );
  });
}
