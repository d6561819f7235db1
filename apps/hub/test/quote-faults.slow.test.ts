import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, describe, test } from "node:test";
import { type CatalogChain, quoteWinnerSchema } from "@hub/contract";
import { pollUntil } from "@hub/test-support";
import { devnetProvider } from "../src/providers/index.js";
import { type ProviderStandIn, startProviderStandIn } from "./fixtures/provider-stand-in.js";
import { assertRefusal } from "./hub-fixture.js";
import { dataOf, disposeQuoteDatabases, type QuoteHub, startQuoteHub } from "./quote-hub.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const AGGREGATION_ERROR = {
  status: 400,
  body: JSON.stringify({
    error: "AGGREGATION_ERROR",
    message: "All solvers failed to provide quotes",
    timestamp: 0,
  }),
};

describe("quote rounds when providers are slow, refuse or fail", () => {
  let devnet: HubTestDevnet;
  let slow: ProviderStandIn;
  let edge: ProviderStandIn;
  let withSlow: QuoteHub;
  let edgeOnly: QuoteHub;
  let request: Record<string, string>;

  before(async () => {
    devnet = await startHubTestDevnet();
    const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
    const tkn = (chain: CatalogChain) => chain.assets.find((a) => a.symbol === "TKN")!.key;
    const user = devnet.manifest.users[0]!.address;
    request = {
      sourceAsset: tkn(origin),
      destinationAsset: tkn(destination),
      amount: "5000000",
      recipient: user,
      sourceAccount: user,
    };
    slow = await startProviderStandIn(`${devnet.url}/aggregator`);
    edge = await startProviderStandIn(`${devnet.url}/aggregator`);
    withSlow = await startQuoteHub({
      catalog: devnet.catalog,
      providers: [
        devnetProvider(devnet.url),
        { id: "slow", kind: "oif-aggregator", dialect: "oif-aggregator", baseUrl: slow.url, timeoutMs: 300 },
      ],
    });
    edgeOnly = await startQuoteHub({
      catalog: devnet.catalog,
      providers: [
        {
          id: "edge",
          kind: "oif-aggregator",
          dialect: "oif-aggregator",
          baseUrl: edge.url,
          timeoutMs: 8000,
          connections: 64,
        },
      ],
    });
  });

  after(async () => {
    await withSlow?.stop();
    await edgeOnly?.stop();
    await slow?.close();
    await edge?.close();
    await devnet?.stop();
    await disposeQuoteDatabases();
  });

  test("a provider slower than its timeout is dropped and the round still answers with the others", async (t) => {
    slow.delayMs = 10_000;
    t.after(() => {
      slow.delayMs = 0;
    });
    const dropped = await withSlow.metric("hub_quote_provider_calls_total", {
      provider: "slow",
      outcome: "unavailable",
    });
    const started = performance.now();
    const winner = quoteWinnerSchema.parse(dataOf(await withSlow.post("/v1/quote", request)));
    const elapsedMs = performance.now() - started;
    assert.equal(winner.provider, "devnet.alpha");
    assert.ok(
      elapsedMs < 5000,
      `answered without waiting for the slow provider (${Math.round(elapsedMs)} ms)`,
    );
    const now = await withSlow.metric("hub_quote_provider_calls_total", {
      provider: "slow",
      outcome: "unavailable",
    });
    assert.equal(now, dropped + 1);
  });

  test("the round's deadline ends it even when a provider's own timeout is longer (EIN0050)", async (t) => {
    const hurried = await startQuoteHub({
      catalog: devnet.catalog,
      providers: [
        { id: "edge", kind: "oif-aggregator", dialect: "oif-aggregator", baseUrl: edge.url, timeoutMs: 5000 },
      ],
      config: { quoteDeadlineMs: 300 },
    });
    t.after(async () => {
      edge.delayMs = 0;
      await hurried.stop();
    });
    edge.delayMs = 10_000;
    const started = performance.now();
    const answer = await hurried.post("/v1/quote", request);
    assertRefusal(answer.answer, "EIN0050");
    assert.ok(performance.now() - started < 4000, "the deadline, not the provider timeout, ended the round");
  });

  test("an upstream 429 is EIN0081", async (t) => {
    t.after(() => {
      edge.canned = undefined;
    });
    edge.canned = {
      status: 429,
      body: JSON.stringify({ error: "RATE_LIMITED" }),
      headers: { "retry-after": "1" },
    };
    assertRefusal((await edgeOnly.post("/v1/quote", request)).answer, "EIN0081");
  });

  test("an upstream that refuses the hub's credential is EIN0050 upstreamAuth", async (t) => {
    t.after(() => {
      edge.canned = undefined;
    });
    edge.canned = { status: 401, body: JSON.stringify({ error: "UNAUTHORIZED" }) };
    const entry = assertRefusal((await edgeOnly.post("/v1/quote/preview", request)).answer, "EIN0050");
    assert.deepEqual(entry.error_params, ["upstreamAuth"]);
  });

  test("every provider unreachable is EIN0050 without params", async (t) => {
    const port = await closedPort();
    const unreachable = await startQuoteHub({
      catalog: devnet.catalog,
      providers: [{ id: "gone", kind: "oif-aggregator", baseUrl: `http://127.0.0.1:${port}` }],
    });
    t.after(() => unreachable.stop());
    const entry = assertRefusal((await unreachable.post("/v1/quote", request)).answer, "EIN0050");
    assert.equal(entry.error_params, undefined);
  });

  test("a round in which no solver quotes is EIN0008", async (t) => {
    t.after(() => {
      edge.canned = undefined;
    });
    edge.canned = AGGREGATION_ERROR;
    assertRefusal((await edgeOnly.post("/v1/quote", request)).answer, "EIN0008");
  });

  test("with 64 quotes in flight the next one is EIN0081 at once, and the 64 still finish", async (t) => {
    t.after(() => {
      edge.canned = undefined;
      edge.delayMs = 0;
    });
    edge.canned = AGGREGATION_ERROR;
    edge.delayMs = 4000;
    const seen = edge.received.length;
    const held = Array.from({ length: 64 }, () => edgeOnly.post("/v1/quote", request));
    await pollUntil("64 rounds at the provider", () => edge.received.length - seen >= 64, {
      timeoutMs: 10_000,
      intervalMs: 0,
    });
    const started = performance.now();
    assertRefusal(
      (await edgeOnly.post("/v1/quote/prepare", { ...request, preparationId: "p1", provider: "edge.alpha" }))
        .answer,
      "EIN0081",
    );
    assert.ok(performance.now() - started < 2500, "shed, not queued");
    for (const result of await Promise.all(held)) assertRefusal(result.answer, "EIN0008");
    edge.delayMs = 0;
    assertRefusal((await edgeOnly.post("/v1/quote", request)).answer, "EIN0008", undefined);
  });
});
