import assert from "node:assert/strict";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { createServer as createHttpServer, type ServerResponse } from "node:http";
import { type AddressInfo, createServer } from "node:net";
import { after, before, describe, test } from "node:test";
import type { CatalogChain } from "@hub/contract";
import {
  createOifAggregatorClient,
  devnetProvider,
  encodeInteropAddress,
  type OifAggregatorClient,
  type OifQuoteRequest,
} from "../src/providers/index.js";
import { type ProviderStandIn, startProviderStandIn } from "./fixtures/provider-stand-in.js";
import { type HubTestDevnet, startHubTestDevnet } from "./upstream-devnet.js";

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the OIF client in the reference aggregator's dialect maps every upstream answer to one outcome", () => {
  let devnet: HubTestDevnet;
  let client: OifAggregatorClient;
  let standIn: ProviderStandIn;
  let standInClient: OifAggregatorClient;
  let request: OifQuoteRequest;

  before(async () => {
    devnet = await startHubTestDevnet();
    client = createOifAggregatorClient(
      devnetProvider(devnet.url, { dialect: "oif-aggregator", timeoutMs: 2000 }),
    );
    standIn = await startProviderStandIn(`${devnet.url}/aggregator`);
    standInClient = createOifAggregatorClient(
      devnetProvider(devnet.url, { id: "standin", dialect: "oif-aggregator", baseUrl: standIn.url }),
    );
    const [origin, destination] = devnet.catalog.families.evm as [CatalogChain, CatalogChain];
    const usdc = (chain: CatalogChain) => chain.assets.find((a) => a.symbol === "USDC")!.address!;
    const user = devnet.manifest.users[0]!.address;
    request = {
      user: encodeInteropAddress(origin.chainId, user),
      intent: {
        intentType: "oif-swap",
        inputs: [
          {
            user: encodeInteropAddress(origin.chainId, user),
            asset: encodeInteropAddress(origin.chainId, usdc(origin)),
            amount: "1000000",
          },
        ],
        outputs: [
          {
            receiver: encodeInteropAddress(destination.chainId, user),
            asset: encodeInteropAddress(destination.chainId, usdc(destination)),
          },
        ],
        swapType: "exact-input",
        originSubmission: { mode: "user", schemes: ["permit2"] },
      },
      supportedTypes: ["oif-escrow-v0"],
    };
  });

  after(async () => {
    await client?.close();
    await standInClient?.close();
    await standIn?.close();
    await devnet?.stop();
  });

  async function oneQuote(): Promise<Record<string, unknown>> {
    const outcome = await client.quote(request);
    assert.equal(outcome.kind, "quotes");
    return (outcome as { quotes: Record<string, unknown>[] }).quotes[0]!;
  }

  test("a quote round answers every solver's QuoteResponse as received", async () => {
    const outcome = await client.quote(request);
    assert.equal(outcome.kind, "quotes", JSON.stringify(outcome));
    if (outcome.kind !== "quotes") return;
    const solvers = outcome.quotes.map((q) => (q as { solverId: string }).solverId).sort();
    assert.deepEqual(solvers, ["alpha", "beta"]);
    for (const quote of outcome.quotes) {
      assert.match((quote as { integrityChecksum: string }).integrityChecksum, /^[0-9a-f]{64}$/);
    }
  });

  test("a round in which no solver quotes is no-quotes (AGGREGATION_ERROR), not unavailable", async () => {
    const sameChain = structuredClone(request);
    sameChain.intent.outputs[0]!.asset = sameChain.intent.inputs[0]!.asset;
    const outcome = await client.quote(sameChain);
    assert.equal(outcome.kind, "no-quotes", JSON.stringify(outcome));
  });

  test("an accepted order answers the upstream order id as given, and getOrder finds it", async () => {
    const quote = await oneQuote();
    const outcome = await client.submitOrder({ quoteResponse: quote });
    assert.equal(outcome.kind, "accepted", JSON.stringify(outcome));
    if (outcome.kind !== "accepted") return;
    assert.match(outcome.orderId, /^[0-9a-f]{64}$/);
    const read = await client.getOrder(outcome.orderId);
    assert.equal(read.kind, "found", JSON.stringify(read));
    if (read.kind === "found") assert.equal(read.order.orderId, outcome.orderId);
  });

  test("an unknown order id reads as not-found", async () => {
    assert.equal((await client.getOrder("ab".repeat(32))).kind, "not-found");
  });

  test("a solver's refusal (422 SOLVER_REJECTED) is solver-rejected", async (t) => {
    const quote = await oneQuote();
    await devnet.control("POST", `/solvers/${quote.solverId}/faults`, { refuseOrders: true });
    t.after(() => devnet.control("DELETE", `/solvers/${quote.solverId}/faults`));
    const outcome = await client.submitOrder({ quoteResponse: quote, signature: `0x00${"11".repeat(65)}` });
    assert.equal(outcome.kind, "solver-rejected", JSON.stringify(outcome));
  });

  test("an upstream 429 is rate-limited with its Retry-After", async (t) => {
    const quote = await oneQuote();
    await devnet.control("POST", `/solvers/${quote.solverId}/faults`, { rateLimited: true });
    t.after(() => devnet.control("DELETE", `/solvers/${quote.solverId}/faults`));
    const outcome = await client.submitOrder({ quoteResponse: quote });
    assert.deepEqual(outcome, { kind: "rate-limited", retryAfterSeconds: 1 });
  });

  test("another 4xx is refused with the upstream's error and message", async () => {
    const quote = await oneQuote();
    const outcome = await client.submitOrder({ quoteResponse: { ...quote, integrityChecksum: "" } });
    assert.equal(outcome.kind, "refused", JSON.stringify(outcome));
    if (outcome.kind === "refused") {
      assert.equal(outcome.httpStatus, 400);
      assert.equal(outcome.error, "VALIDATION_ERROR");
    }
  });

  test("a 5xx answer (checksum that does not verify) is unknown: it may have reached the upstream", async () => {
    const quote = await oneQuote();
    const outcome = await client.submitOrder({
      quoteResponse: { ...quote, integrityChecksum: "0".repeat(64) },
    });
    assert.equal(outcome.kind, "unknown", JSON.stringify(outcome));
  });

  test("a connection reset after the request was sent (aggregator down) is unknown", async (t) => {
    const quote = await oneQuote();
    await devnet.control("POST", "/aggregator/faults", { down: true });
    t.after(() => devnet.control("DELETE", "/aggregator/faults"));
    assert.equal((await client.submitOrder({ quoteResponse: quote })).kind, "unknown");
    const read = await client.getOrder("ab".repeat(32));
    assert.equal(read.kind, "unavailable");
    const round = await client.quote(request);
    assert.equal(round.kind, "unavailable");
  });

  test("an upstream that hangs past the provider's timeout is unknown on submission, unavailable on a quote", async (t) => {
    const quote = await oneQuote();
    const hurried = createOifAggregatorClient(
      devnetProvider(devnet.url, { dialect: "oif-aggregator", timeoutMs: 200 }),
    );
    t.after(() => hurried.close());
    await devnet.control("POST", "/aggregator/faults", { hang: true });
    t.after(() => devnet.control("DELETE", "/aggregator/faults"));
    const started = performance.now();
    const outcome = await hurried.submitOrder({ quoteResponse: quote });
    assert.equal(outcome.kind, "unknown");
    assert.ok(performance.now() - started < 1500, "the per-call timeout ends the call");
    assert.deepEqual(await hurried.quote(request), {
      kind: "unavailable",
      reason: "timeout",
      cause: "no answer within 200 ms",
    });
  });

  test("a connection refused before any byte was written is not-sent", async (t) => {
    const port = await closedPort();
    const nowhere = createOifAggregatorClient(
      devnetProvider(`http://127.0.0.1:${port}`, { id: "nowhere", dialect: "oif-aggregator" }),
    );
    t.after(() => nowhere.close());
    const outcome = await nowhere.submitOrder({ quoteResponse: {} });
    assert.equal(outcome.kind, "not-sent", JSON.stringify(outcome));
  });

  test("a caller's signal aborted before the call sends nothing", async () => {
    const controller = new AbortController();
    controller.abort(new Error("caller gone"));
    const outcome = await client.submitOrder({ quoteResponse: {} }, controller.signal);
    assert.equal(outcome.kind, "not-sent");
  });

  test("a caller's signal that fires while the upstream holds the call ends it as aborted, with the caller's reason", async (t) => {
    t.after(() => {
      standIn.delayMs = 0;
    });
    standIn.delayMs = 60_000;
    const controller = new AbortController();
    const before = standIn.received.length;
    const pending = standInClient.quote(request, controller.signal);
    const deadline = Date.now() + 5000;
    while (standIn.received.length === before && Date.now() < deadline) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(standIn.received.length, before + 1, "the call reached the upstream");
    controller.abort(new Error("caller gone"));
    assert.deepEqual(await pending, { kind: "unavailable", reason: "aborted", cause: "caller gone" });
  });

  test("an answer over 4 MiB is unavailable (malformed) on a quote and unknown on submission", async (t) => {
    t.after(() => {
      standIn.canned = undefined;
    });
    standIn.canned = { status: 200, body: `{"quotes":[],"pad":"${"x".repeat(4 * 1024 * 1024)}"}` };
    assert.deepEqual(await standInClient.quote(request), {
      kind: "unavailable",
      reason: "malformed",
      cause: "upstream answer over 4194304 bytes",
    });
    assert.deepEqual(await standInClient.submitOrder({ quoteResponse: {} }), {
      kind: "unknown",
      cause: "upstream answer over 4194304 bytes",
    });
  });

  test("401 and 403 are auth-refused on every call", async (t) => {
    t.after(() => {
      standIn.canned = undefined;
    });
    for (const status of [401, 403]) {
      standIn.canned = { status, body: JSON.stringify({ error: "UNAUTHORIZED", message: "no" }) };
      assert.deepEqual(await standInClient.quote(request), { kind: "auth-refused", httpStatus: status });
      assert.deepEqual(await standInClient.submitOrder({ quoteResponse: {} }), {
        kind: "auth-refused",
        httpStatus: status,
      });
      assert.deepEqual(await standInClient.getOrder("x"), { kind: "auth-refused", httpStatus: status });
    }
  });

  test("a 200 answer that does not parse is unknown on submission and unavailable on reads", async (t) => {
    t.after(() => {
      standIn.canned = undefined;
    });
    standIn.canned = { status: 200, body: "{not json" };
    assert.equal((await standInClient.submitOrder({ quoteResponse: {} })).kind, "unknown");
    const read = await standInClient.getOrder("x");
    assert.equal(read.kind, "unavailable");
    standIn.canned = { status: 200, body: JSON.stringify({ orderId: "" }) };
    assert.equal((await standInClient.submitOrder({ quoteResponse: {} })).kind, "unknown");
  });

  test("in the specification's dialect each quote names its solver by provider (else the provider's id), the provider key first as zod's copy put it", async (t) => {
    const spec = createOifAggregatorClient(
      devnetProvider(devnet.url, { id: "standin-spec", dialect: "oif-spec-1", baseUrl: standIn.url }),
    );
    t.after(() => spec.close());
    t.after(() => {
      standIn.canned = undefined;
    });
    const quotes = [
      '{"quoteId":"a","provider":"alpha","order":{}}',
      '{"quoteId":"b","order":{}}',
      '{"quoteId":"c","provider":7}',
      "[1,2]",
      "null",
      '{"quoteId":"d","solverId":"s","provider":"p"}',
      '{"quoteId":"e","__proto__":{"provider":"inherited"}}',
      '{"1":"x","quoteId":"f","provider":"p"}',
      '{"provider":null}',
      '{"provider":""}',
      '{"__proto__":5,"provider":"q"}',
    ];
    standIn.canned = { status: 200, body: `{"quotes":[${quotes.join(",")}]}` };
    const outcome = await spec.quote(request);
    assert.equal(outcome.kind, "quotes");
    assert.deepEqual(
      (outcome as { quotes: unknown[] }).quotes.map((quote) => JSON.stringify(quote)),
      [
        '{"provider":"alpha","quoteId":"a","order":{},"solverId":"alpha"}',
        '{"quoteId":"b","order":{},"solverId":"standin-spec"}',
        '{"quoteId":"c","provider":7}',
        "[1,2]",
        "null",
        '{"provider":"p","quoteId":"d","solverId":"p"}',
        '{"quoteId":"e","solverId":"standin-spec"}',
        '{"1":"x","provider":"p","quoteId":"f","solverId":"p"}',
        '{"provider":null}',
        '{"provider":"","solverId":""}',
        '{"provider":"q","solverId":"q"}',
      ],
    );
  });

  describe("an answer whose body stops after its first bytes", () => {
    let url: string;
    let close: () => Promise<void>;
    /** What the upstream does after the headers and the first bytes: hold the rest, or close the socket. */
    let then: "hold" | "cut" = "hold";
    const held: ServerResponse[] = [];

    before(async () => {
      const server = createHttpServer((req, res) => {
        req.resume();
        req.on("end", () => {
          res.writeHead(200, { "content-type": "application/json", "content-length": "4096" });
          res.write('{"quotes":[', () => {
            if (then === "cut") res.socket?.destroy();
            else held.push(res);
          });
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      close = async () => {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      };
    });

    after(() => close?.());

    test("a caller's signal that fires while the body arrives ends the call as aborted, with the caller's reason", async (t) => {
      const halfway = createOifAggregatorClient(
        devnetProvider(devnet.url, { id: "halfway", dialect: "oif-aggregator", baseUrl: url }),
      );
      t.after(() => halfway.close());
      let headersSeen = false;
      const onHeaders = () => {
        headersSeen = true;
      };
      subscribe("hub:upstream:answer-head", onHeaders);
      t.after(() => unsubscribe("hub:upstream:answer-head", onHeaders));
      const controller = new AbortController();
      const pending = halfway.quote(request, controller.signal);
      const deadline = Date.now() + 5000;
      while (!(headersSeen && held.length > 0) && Date.now() < deadline) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.ok(headersSeen && held.length > 0, "the answer's headers and first bytes arrived");
      controller.abort(new Error("caller gone"));
      assert.deepEqual(await pending, { kind: "unavailable", reason: "aborted", cause: "caller gone" });
    });

    test("an answer whose body stalls past the provider's timeout is a timeout", async (t) => {
      const halfway = createOifAggregatorClient(
        devnetProvider(devnet.url, {
          id: "halfway",
          dialect: "oif-aggregator",
          baseUrl: url,
          timeoutMs: 200,
        }),
      );
      t.after(() => halfway.close());
      assert.deepEqual(await halfway.quote(request), {
        kind: "unavailable",
        reason: "timeout",
        cause: "no answer within 200 ms",
      });
      assert.deepEqual(await halfway.submitOrder({ quoteResponse: {} }), {
        kind: "unknown",
        cause: "no answer within 200 ms",
      });
    });

    test("a connection closed in the middle of the body is a transport failure, after the request was sent", async (t) => {
      then = "cut";
      t.after(() => {
        then = "hold";
      });
      const halfway = createOifAggregatorClient(
        devnetProvider(devnet.url, { id: "halfway", dialect: "oif-aggregator", baseUrl: url }),
      );
      t.after(() => halfway.close());
      assert.deepEqual(await halfway.quote(request), {
        kind: "unavailable",
        reason: "transport",
        cause: "UND_ERR_SOCKET: other side closed",
      });
      assert.deepEqual(await halfway.submitOrder({ quoteResponse: {} }), {
        kind: "unknown",
        cause: "UND_ERR_SOCKET: other side closed",
      });
    });
  });
});
