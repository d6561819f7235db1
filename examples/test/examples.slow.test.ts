import assert from "node:assert/strict";
import { test } from "node:test";
import { createHubClient, hubOrderIdOf, type SubmitStep } from "@intent-hub/sdk";
import { viemWalletOverHttp } from "@intent-hub/sdk/viem";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { exampleHarness, stepsOf } from "./example-harness.js";

// Every example runs as a newcomer runs it (`npm run example -- <lane>`) against a stack started as
// `npm start` starts it: these are the SDK's end-to-end tests, one per EVM lane, on real chains.
const harness = exampleHarness({ dataDirPrefix: "hub-examples-", timeoutMs: 120_000 });

const lanes = [
  {
    lane: "permit2",
    wire: "oif-escrow-gasless",
    steps: ["stack", "approve", "quote", "signature", "ack", "state", "money", "RESULT"],
  },
  {
    lane: "eip3009",
    wire: "aggregator-gasless",
    steps: ["stack", "quote", "signature", "ack", "state", "money", "RESULT"],
  },
  {
    lane: "wrap-native",
    wire: "oif-wrap-native",
    steps: ["stack", "quote", "tx", "ack", "state", "money", "RESULT"],
  },
  {
    lane: "swap-token",
    wire: "oif-swap-token",
    steps: ["stack", "quote", "cost", "tx", "ack", "state", "money", "RESULT"],
  },
  {
    lane: "open-flow",
    wire: "open-flow",
    steps: ["stack", "quote", "tx", "signature", "ack", "state", "money", "RESULT"],
  },
];

for (const { lane, wire, steps } of lanes) {
  test(`npm run example -- ${lane}: quote, ${wire} submission, each state, and settled money facts from the on-chain views`, async () => {
    const lines = await harness.runExample(lane);
    assert.deepEqual(stepsOf(lines), steps, lines.join("\n"));
    const result = JSON.parse(lines.at(-1)!.replace(/^RESULT /, ""));
    assert.equal(result.lane, wire);
    assert.deepEqual([result.status, result.filled, result.settled], ["SETTLED", true, true]);
    assert.ok(result.paid.length > 0 && result.paid.every((amount: string) => BigInt(amount) > 0n));
    const sendsSteps = wire !== "oif-escrow-gasless" && wire !== "aggregator-gasless";
    assert.deepEqual(
      result.opened,
      sendsSteps ? [result.orderId] : [],
      "each sent step opened the followed order",
    );
    if (wire === "open-flow") return;

    // The SDK's history read on the same subject: the canary check passes and the order is listed settled.
    const { subject, hubOrderId, page } = await harness.listedOrders(lines);
    assert.equal(page.subject, subject);
    assert.deepEqual(
      page.orders.map((order) => [order.orderId, order.onchainOrderId, order.chain?.status]),
      [[hubOrderId, result.orderId, "SETTLED"]],
    );
  });
}

test("on the real stack a lost openFor answer is recovered: the SDK reads the order by hubOrderId, re-posts the same body and gets the first ack", async () => {
  const { dev } = harness.stack;
  const account = privateKeyToAccount(dev.accounts[5]!.privateKey as Hex);
  const posts: string[] = [];
  // The first registration reaches the hub and is answered, but the answer never reaches the caller.
  const losingFetch: typeof fetch = async (input, init) => {
    const answer = await fetch(input, init);
    if (String(input).endsWith("/order/openfor")) {
      posts.push(String(init?.body));
      if (posts.length === 1) {
        await answer.text();
        throw new TypeError("the connection broke before the answer arrived");
      }
    }
    return answer;
  };
  const subject = "sdk-lost-answer";
  const client = createHubClient({ baseUrl: dev.baseUrl, apiKey: dev.apiKey, subject, fetch: losingFetch });
  const [origin, destination] = (await client.getCatalog()).families.evm;
  const usdc = (chain: typeof origin) => chain!.assets.find((asset) => asset.symbol === "USDC")!.key;
  const request = {
    sourceAsset: usdc(origin),
    destinationAsset: usdc(destination),
    amount: "1200000",
    recipient: account.address,
    sourceAccount: account.address,
  };
  const offer = (await client.previewQuote(request)).offers.find(
    (entry) => entry.lane === "aggregator-gasless",
  );
  assert.ok(offer, "an EIP-3009 offer");
  const quote = await client.prepareQuote({
    ...request,
    preparationId: "sdk-lost-answer",
    provider: offer.provider,
  });
  const rpcUrls = Object.fromEntries(dev.chains.map((chain) => [chain.chainId, chain.rpcUrl]));
  const steps: SubmitStep[] = [];
  const order = await client.submit(quote, viemWalletOverHttp(account, rpcUrls), {
    onStep: (s) => steps.push(s),
  });

  assert.deepEqual(
    steps.map((s) => (s.step === "lost-answer" ? `${s.step}:${s.error.code}:${s.orderFound}` : s.step)),
    ["signed", "lost-answer:ESDK_NETWORK:true", "acked"],
  );
  assert.equal(posts.length, 2);
  assert.equal(posts[1], posts[0], "the identical body, with the one signature");
  assert.equal(order.kind === "openfor" && order.hubOrderId, await hubOrderIdOf(quote.quoteId));
  const page = await client.listOrders();
  assert.deepEqual(
    page.orders.map((entry) => entry.orderId),
    [order.kind === "openfor" && order.hubOrderId],
    "one order",
  );
});
