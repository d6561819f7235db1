import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Clock } from "@hub/clock";
import Fastify, { type FastifyInstance } from "fastify";
import { createAggregator } from "../src/aggregator/aggregator.js";
import { computeIntegrityChecksum, verifyIntegrityChecksum } from "../src/aggregator/integrity-checksum.js";
import { decodeInteropAddress, encodeInteropAddress } from "../src/aggregator/interop-address.js";
import type { QuoteResponse } from "../src/aggregator/oif-quote.js";
import { registerAggregatorRoutes } from "../src/aggregator/register-aggregator-routes.js";

const secret = "unit-secret";
const nowMs = 1_800_000_000_000;
const clock: Clock = { now: () => nowMs };
// Nothing listens on port 1: every call to these solvers is refused at connect.
const deadSolver = "http://127.0.0.1:1/api/v1";

function unsignedQuote(overrides: Partial<QuoteResponse> = {}): Omit<QuoteResponse, "integrityChecksum"> {
  return {
    quoteId: "q-1",
    solverId: "alpha",
    order: {
      type: "oif-escrow-v0",
      payload: {
        signatureType: "eip712",
        domain: { name: "Permit2", chainId: 31337 },
        primaryType: "PermitBatchWitnessTransferFrom",
        message: { nonce: "1" },
      },
    },
    validUntil: Math.floor(nowMs / 1000) + 60,
    eta: 30,
    provider: "Alpha",
    failureHandling: "refund-automatic",
    partialFill: false,
    preview: {
      inputs: [{ user: "0x0001", asset: "0x0002", amount: "100" }],
      outputs: [{ receiver: "0x0003", asset: "0x0004", amount: "99" }],
    },
    ...overrides,
  };
}

function signed(quote: Omit<QuoteResponse, "integrityChecksum">): QuoteResponse {
  return { ...quote, integrityChecksum: computeIntegrityChecksum(secret, quote) };
}

const quoteBody = {
  user: encodeInteropAddress(31337, "0x1111111111111111111111111111111111111111"),
  intent: {
    intentType: "oif-swap",
    inputs: [
      {
        user: encodeInteropAddress(31337, "0x1111111111111111111111111111111111111111"),
        asset: encodeInteropAddress(31337, "0x2222222222222222222222222222222222222222"),
        amount: "100",
      },
    ],
    outputs: [
      {
        receiver: encodeInteropAddress(31338, "0x1111111111111111111111111111111111111111"),
        asset: encodeInteropAddress(31338, "0x3333333333333333333333333333333333333333"),
      },
    ],
  },
  supportedTypes: ["oif-escrow-v0"],
};

let app: FastifyInstance;
before(async () => {
  const aggregator = createAggregator({
    solvers: [
      { solverId: "alpha", baseUrl: deadSolver },
      { solverId: "beta", baseUrl: deadSolver },
    ],
    integritySecret: secret,
    solverTimeoutMs: 500,
    globalTimeoutMs: 1000,
    clock,
  });
  app = Fastify();
  registerAggregatorRoutes(app, { prefix: "/aggregator", aggregator, clock });
  await app.ready();
});
after(async () => {
  await app.close();
});

describe("ERC-7930 interop addresses", () => {
  test("encode as the reference examples and decode back to chain id and checksummed address", () => {
    assert.equal(
      encodeInteropAddress(1, "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045"),
      "0x00010000010114d8da6bf26964af9d7eed9e03e53415d37aa96045",
    );
    assert.match(
      encodeInteropAddress(31337, "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045"),
      /^0x00010000027a6914/,
    );
    assert.deepEqual(decodeInteropAddress("0x00010000010114D8DA6BF26964AF9D7EED9E03E53415D37AA96045"), {
      chainId: 1,
      address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045",
    });
  });

  test("refuse the pre-2025 layout, non-eip155 chain types and leading zeros in the chain reference", () => {
    assert.equal(
      decodeInteropAddress("0x0100000314aa37dc14d8da6bf26964af9d7eed9e03e53415d37aa96045"),
      undefined,
    );
    assert.equal(decodeInteropAddress("0x00010002010114d8da6bf26964af9d7eed9e03e53415d37aa96045"), undefined);
    assert.equal(
      decodeInteropAddress("0x0001000002000114d8da6bf26964af9d7eed9e03e53415d37aa96045"),
      undefined,
    );
  });
});

describe("integrity checksum", () => {
  test("covers every field of the reference payload and verifies an untouched echo", () => {
    const quote = signed(unsignedQuote());
    assert.match(quote.integrityChecksum, /^[0-9a-f]{64}$/);
    assert.ok(verifyIntegrityChecksum(secret, quote));
    const changes: Partial<QuoteResponse>[] = [
      { quoteId: "q-2" },
      { solverId: "beta" },
      { provider: "Other" },
      { validUntil: quote.validUntil! + 1 },
      { eta: 31 },
      { failureHandling: "refund-claim" },
      { partialFill: true },
      { preview: { ...quote.preview, outputs: [{ ...quote.preview.outputs[0]!, amount: "100" }] } },
    ];
    for (const change of changes)
      assert.equal(verifyIntegrityChecksum(secret, { ...quote, ...change }), false, JSON.stringify(change));
    assert.equal(verifyIntegrityChecksum("another-secret", quote), false);
  });

  test("holds when a client reorders the preview's keys, as the reference serialises struct fields in order", () => {
    const quote = signed(unsignedQuote());
    const reordered = {
      ...quote,
      preview: {
        outputs: [{ amount: "99", asset: "0x0004", receiver: "0x0003" }],
        inputs: [{ amount: "100", asset: "0x0002", user: "0x0001" }],
      },
    };
    assert.ok(verifyIntegrityChecksum(secret, reordered));
  });
});

describe("aggregator HTTP API refusals", () => {
  test("a quote request with an unknown field is refused 422 in plain text, like the reference's JSON extractor", async () => {
    const answer = await app.inject({
      method: "POST",
      url: "/aggregator/api/v1/quotes",
      payload: { ...quoteBody, extra: 1 },
    });
    assert.equal(answer.statusCode, 422);
    assert.match(answer.headers["content-type"] as string, /^text\/plain/);
    assert.match(answer.body, /Failed to deserialize the JSON body/);
  });

  test("malformed JSON is refused 400 in plain text", async () => {
    const answer = await app.inject({
      method: "POST",
      url: "/aggregator/api/v1/quotes",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    assert.equal(answer.statusCode, 400);
    assert.match(answer.body, /Failed to parse the request body as JSON/);
  });

  test("an exact-input request without an input amount is a 400 VALIDATION_ERROR envelope", async () => {
    const { amount: _dropped, ...input } = quoteBody.intent.inputs[0]!;
    const answer = await app.inject({
      method: "POST",
      url: "/aggregator/api/v1/quotes",
      payload: { ...quoteBody, intent: { ...quoteBody.intent, inputs: [input] } },
    });
    assert.equal(answer.statusCode, 400);
    const body = answer.json() as { error: string; message: string; timestamp: number };
    assert.equal(body.error, "VALIDATION_ERROR");
    assert.equal(body.timestamp, Math.floor(nowMs / 1000));
  });

  test("solverOptions timeouts are bounded as the reference bounds them", async () => {
    for (const solverOptions of [
      { solverTimeout: 50 },
      { timeout: 70_000 },
      { timeout: 300, solverTimeout: 400 },
    ]) {
      const answer = await app.inject({
        method: "POST",
        url: "/aggregator/api/v1/quotes",
        payload: { ...quoteBody, solverOptions },
      });
      assert.equal(answer.statusCode, 400, JSON.stringify(solverOptions));
      assert.equal((answer.json() as { error: string }).error, "VALIDATION_ERROR");
    }
    const onlyRound = await app.inject({
      method: "POST",
      url: "/aggregator/api/v1/quotes",
      payload: { ...quoteBody, solverOptions: { timeout: 300 } },
    });
    assert.equal((onlyRound.json() as { error: string }).error, "AGGREGATION_ERROR");
  });

  test("a round where every solver fails answers 400 AGGREGATION_ERROR", async () => {
    const answer = await app.inject({ method: "POST", url: "/aggregator/api/v1/quotes", payload: quoteBody });
    assert.equal(answer.statusCode, 400);
    assert.deepEqual(answer.json(), {
      error: "AGGREGATION_ERROR",
      message: "All solvers failed to provide quotes",
      timestamp: Math.floor(nowMs / 1000),
    });
  });

  test("an order on a quote past validUntil is refused 400 QUOTE_EXPIRED before reaching the solver", async () => {
    const quote = signed(unsignedQuote({ validUntil: Math.floor(nowMs / 1000) - 1 }));
    const answer = await app.inject({
      method: "POST",
      url: "/aggregator/api/v1/orders",
      payload: { quoteResponse: quote },
    });
    assert.equal(answer.statusCode, 400);
    assert.equal((answer.json() as { error: string }).error, "QUOTE_EXPIRED");
  });

  test("an order whose solver cannot be reached answers 502 SOLVER_ADAPTER_ERROR", async () => {
    const answer = await app.inject({
      method: "POST",
      url: "/aggregator/api/v1/orders",
      payload: { quoteResponse: signed(unsignedQuote()), signature: `0x00${"ab".repeat(65)}` },
    });
    assert.equal(answer.statusCode, 502);
    assert.equal((answer.json() as { error: string }).error, "SOLVER_ADAPTER_ERROR");
  });

  test("unknown orders and solvers answer 404 in the reference envelope; health stays 200 and says degraded", async () => {
    const order = await app.inject({ method: "GET", url: `/aggregator/api/v1/orders/${"ab".repeat(32)}` });
    assert.equal(order.statusCode, 404);
    assert.equal((order.json() as { error: string }).error, "ORDER_NOT_FOUND");
    const solver = await app.inject({ method: "GET", url: "/aggregator/api/v1/solvers/nobody" });
    assert.equal(solver.statusCode, 404);
    assert.equal((solver.json() as { error: string }).error, "SOLVER_NOT_FOUND");
    const health = await app.inject({ method: "GET", url: "/aggregator/health" });
    assert.equal(health.statusCode, 200);
    const body = health.json() as { status: string; solvers: { total: number; unhealthy: number } };
    assert.equal(body.status, "degraded");
    assert.equal(body.solvers.unhealthy, 2);
  });
});
