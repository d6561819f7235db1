import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { devnetUsdcAbi } from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import { pino } from "pino";
import { maxUint256, parseUnits } from "viem";
import type { OrderResponse } from "../src/aggregator/oif-order.js";
import { createChainClients } from "../src/create-chain-clients.js";
import { createDevnet, type Devnet } from "../src/create-devnet.js";
import { call, getQuotes, quoteRequest, signPayload } from "./aggregator-devnet.js";

const permit2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
// The devnet defaults: committee delay 2 s, services polling every 100 ms, a block per transaction.
const boundMs = 15_000;

let devnet: Devnet;
let dataDir: string;
before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "devnet-timing-"));
  devnet = await createDevnet({ port: 0, dataDir, logger: pino({ level: "silent" }) });
});
after(async () => {
  await devnet?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test(`at the devnet's default settings a Permit2 order goes from submission to finalized within ${boundMs / 1000} s`, async (t) => {
  const origin = devnet.manifest.chains[0]!;
  const view = { origin, destination: devnet.manifest.chains[1]!, baseUrl: devnet.url };
  const user = devnet.manifest.users[0]!;
  const clients = createChainClients(devnet.manifest);
  const chain = clients.get(origin.chainId);
  const approval = await chain.wallet(user).writeContract({
    address: origin.contracts.usdc,
    abi: devnetUsdcAbi,
    functionName: "approve",
    args: [permit2, maxUint256],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash: approval });

  const quotes = await getQuotes(view, quoteRequest(view, user, "usdc", parseUnits("100", 6)));
  const quote = quotes.quotes[0]!;
  const signature = await signPayload(user, quote);
  const started = Date.now();
  const submitted = await call(devnet.url, "POST", "/aggregator/api/v1/orders", {
    quoteResponse: quote,
    signature: `0x00${signature.slice(2)}`,
  });
  assert.equal(submitted.status, 200, submitted.text);
  const { orderId } = submitted.body as OrderResponse;
  const final = await pollUntil(
    "the order finalized or failed",
    async () => {
      const order = (await call(devnet.url, "GET", `/aggregator/api/v1/orders/${orderId}`))
        .body as OrderResponse;
      return (order.status === "finalized" || typeof order.status === "object") && order;
    },
    { timeoutMs: boundMs, intervalMs: 100 },
  );
  const elapsedMs = Date.now() - started;
  t.diagnostic(`submission to finalized: ${elapsedMs} ms`);
  assert.equal(final.status, "finalized", JSON.stringify(final.status));
  assert.ok(elapsedMs < boundMs, `${elapsedMs} ms`);
});
