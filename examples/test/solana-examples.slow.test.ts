import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { startReadyStack } from "@hub/cli-app/test-stack";
import { createHubClient } from "@hub/sdk";

// The Solana examples run as a newcomer runs them (`npm run example -- solana-to-evm|evm-to-solana`)
// against a stack started as `npm start` starts it: the SDK's end-to-end tests of the Solana lane, both
// directions, on the devnet's EVM chains and its Solana stand-in.
const root = new URL("../../", import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), "hub-solana-examples-"));
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
    timeout: 180_000,
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
    const lines = await runExample(lane);
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

    const subject = /as (example-\S+),/.exec(lines[0]!)?.[1];
    assert.ok(subject, lines[0]);
    const hubOrderId = /hubOrderId ([0-9a-f]{64})/.exec(lines.join("\n"))?.[1];
    const client = createHubClient({ baseUrl: stack.dev.baseUrl, apiKey: stack.dev.apiKey, subject });
    const page = await client.listOrders();
    assert.deepEqual(
      page.orders.map((order) => [order.orderId, order.lane, order.onchainOrderId, order.chain?.status]),
      [[hubOrderId, wire, result.orderId, "SETTLED"]],
    );
  });
}
