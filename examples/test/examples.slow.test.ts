import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { startReadyStack } from "@hub/cli-app/test-stack";
import { createHubClient } from "@hub/sdk";

// Every example runs as a newcomer runs it (`npm run example -- <lane>`) against a stack started as
// `npm start` starts it: these are the SDK's end-to-end tests, one per EVM lane, on real chains.
const root = new URL("../../", import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), "hub-examples-"));
let stack: Awaited<ReturnType<typeof startReadyStack>>;

before(async () => {
  stack = await startReadyStack(dataDir);
});
after(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function runExample(lane: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)("npm", ["run", "--silent", "example", "--", lane], {
    cwd: root,
    env: { ...process.env, HUB_DATA_DIR: dataDir },
    timeout: 120_000,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`example ${lane} failed: ${error.message}\n${error.stdout}\n${error.stderr}`);
  });
  return stdout.trim().split("\n");
}

/** The labels of the printed steps, in order, each once. */
function stepsOf(lines: string[]): string[] {
  const labels = lines.map((line) => line.split(/\s+/)[0]!);
  return labels.filter((label, index) => labels.indexOf(label) === index);
}

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
    const lines = await runExample(lane);
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
    const subject = /as (example-\S+),/.exec(lines[0]!)?.[1];
    assert.ok(subject, lines[0]);
    const hubOrderId = /hubOrderId ([0-9a-f]{64})/.exec(lines.join("\n"))?.[1];
    const client = createHubClient({ baseUrl: stack.dev.baseUrl, apiKey: stack.dev.apiKey, subject });
    const page = await client.listOrders();
    assert.equal(page.subject, subject);
    assert.deepEqual(
      page.orders.map((order) => [order.orderId, order.onchainOrderId, order.chain?.status]),
      [[hubOrderId, result.orderId, "SETTLED"]],
    );
  });
}
