import assert from "node:assert/strict";
import { after, afterEach, before, describe, test } from "node:test";
import { inputSettlerEscrowAbi, outputSettlerAbi } from "@hub/chain";
import { pollUntil } from "@hub/test-support";
import { request } from "undici";
import { type Hex, parseUnits } from "viem";
import type { OrderResponse } from "../src/aggregator/oif-order.js";
import { evmOrderPayload } from "../src/aggregator/oif-quote.js";
import {
  type AggregatorDevnet,
  call,
  getQuotes,
  quoteRequest,
  readOrder,
  signedEip3009Quote,
  startAggregatorDevnet,
} from "./aggregator-devnet.js";

let devnet: AggregatorDevnet;
before(async () => {
  devnet = await startAggregatorDevnet();
});
after(async () => {
  await devnet?.stop();
});
afterEach(async () => {
  const reset = await call(devnet.baseUrl, "DELETE", "/control/faults");
  assert.equal(reset.status, 200);
  devnet.committee.setDelayMs(100);
});

async function setKnobs(solverId: string, knobs: Record<string, unknown>) {
  const answer = await call(devnet.baseUrl, "POST", `/control/solvers/${solverId}/faults`, knobs);
  assert.equal(answer.status, 200, answer.text);
  return answer.body as { solverId: string; knobs: Record<string, unknown> };
}

async function placeOrder(solverId: "alpha" | "beta", userIndex: number): Promise<OrderResponse> {
  const user = devnet.manifest.users[userIndex]!;
  const { quote, signature } = await signedEip3009Quote(devnet, user, solverId, parseUnits("10", 6));
  const answer = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
    quoteResponse: quote,
    signature,
  });
  assert.equal(answer.status, 200, answer.text);
  return answer.body as OrderResponse;
}

async function events(orderId: string) {
  const id = `0x${orderId}` as Hex;
  const origin = devnet.clients.get(devnet.origin.chainId).publicClient;
  const destination = devnet.clients.get(devnet.destination.chainId).publicClient;
  const escrow = devnet.origin.contracts.inputSettlerEscrow;
  const read = (eventName: "Open" | "Finalised") =>
    origin.getContractEvents({
      address: escrow,
      abi: inputSettlerEscrowAbi,
      eventName,
      args: { orderId: id },
      fromBlock: 0n,
    });
  const [opens, fills, finalised] = await Promise.all([
    read("Open"),
    destination.getContractEvents({
      address: devnet.destination.contracts.outputSettler,
      abi: outputSettlerAbi,
      eventName: "OutputFilled",
      args: { orderId: id },
      fromBlock: 0n,
    }),
    read("Finalised"),
  ]);
  return { opens: opens.length, fills: fills.length, finalised: finalised.length };
}

function failedArm(status: unknown): [string, string] | undefined {
  return typeof status === "object" && status !== null && "failed" in status
    ? (status as { failed: [string, string] }).failed
    : undefined;
}

async function waitForStatus(orderId: string, done: (status: unknown) => boolean): Promise<OrderResponse> {
  const order = await pollUntil(
    "the order status to be done",
    async () => {
      const order = await readOrder(devnet, orderId);
      return done(order.status) && order;
    },
    { timeoutMs: 30_000, intervalMs: 50 },
  );
  assert.ok(done(order.status), `status stuck at ${JSON.stringify(order.status)}`);
  return order;
}

async function rawRequest(path: string, timeoutMs: number) {
  return request(`${devnet.baseUrl}${path}`, { method: "GET", signal: AbortSignal.timeout(timeoutMs) }).then(
    async (response) => ({ status: response.statusCode, text: await response.body.text() }),
  );
}

describe("per-solver fault knobs, observed through the aggregator and on chain", () => {
  test("the control routes set, show and reset a solver's knobs, and refuse unknown solvers and knobs", async () => {
    const set = await setKnobs("alpha", { latencyMs: 5, failAt: "Fill" });
    assert.deepEqual(set.knobs, { latencyMs: 5, failAt: "Fill" });
    const shown = await call(devnet.baseUrl, "GET", "/control/faults");
    assert.deepEqual((shown.body as { solvers: Record<string, unknown> }).solvers.alpha, {
      latencyMs: 5,
      failAt: "Fill",
    });
    assert.equal((await call(devnet.baseUrl, "POST", "/control/solvers/nobody/faults", {})).status, 404);
    assert.equal(
      (await call(devnet.baseUrl, "POST", "/control/solvers/alpha/faults", { explode: true })).status,
      400,
    );
    assert.equal((await call(devnet.baseUrl, "DELETE", "/control/solvers/alpha/faults")).status, 200);
    assert.deepEqual(devnet.faults.get("alpha"), {});
  });

  test("refuseOrders: the aggregator answers 422 SOLVER_REJECTED and nothing is opened", async () => {
    await setKnobs("alpha", { refuseOrders: true });
    const user = devnet.manifest.users[5]!;
    const { quote, signature } = await signedEip3009Quote(devnet, user, "alpha", parseUnits("3", 6));
    const answer = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature,
    });
    assert.equal(answer.status, 422, answer.text);
    assert.equal((answer.body as { error: string }).error, "SOLVER_REJECTED");
    assert.deepEqual(await events(String(evmOrderPayload(quote.order).message.nonce).slice(2)), {
      opens: 0,
      fills: 0,
      finalised: 0,
    });
  });

  test("rateLimited: the solver answers 429, drops out of quote rounds, and a submission answers 429 with Retry-After", async () => {
    const user = devnet.manifest.users[5]!;
    const { quote, signature } = await signedEip3009Quote(devnet, user, "alpha", parseUnits("3", 6));
    await setKnobs("alpha", { rateLimited: true });
    const direct = await call(devnet.baseUrl, "GET", "/solvers/alpha/api/v1/assets");
    assert.equal(direct.status, 429);
    const quotes = await getQuotes(devnet, quoteRequest(devnet, user, "usdc", parseUnits("3", 6)));
    assert.deepEqual(
      quotes.quotes.map((q) => q.solverId),
      ["beta"],
    );
    assert.equal(quotes.metadata.solversRespondedError, 1);
    const answer = await call(devnet.baseUrl, "POST", "/aggregator/api/v1/orders", {
      quoteResponse: quote,
      signature,
    });
    assert.equal(answer.status, 429, answer.text);
    assert.equal((answer.body as { error: string }).error, "RATE_LIMITED");
    assert.equal(answer.headers["retry-after"], "1");
    await call(devnet.baseUrl, "DELETE", "/control/solvers/alpha/faults");
    const unknown = await call(
      devnet.baseUrl,
      "GET",
      `/solvers/alpha/api/v1/orders/${String(evmOrderPayload(quote.order).message.nonce)}`,
    );
    assert.equal(unknown.status, 400, "the refused submission left no order at the solver");
  });

  test("latencyMs: answers are delayed, and a solver slower than the per-solver timeout times out of the round", async () => {
    await setKnobs("alpha", { latencyMs: 300 });
    const started = Date.now();
    assert.equal((await call(devnet.baseUrl, "GET", "/solvers/alpha/api/v1/assets")).status, 200);
    assert.ok(Date.now() - started >= 300);
    await setKnobs("alpha", { latencyMs: 3500 });
    const user = devnet.manifest.users[5]!;
    const quotes = await getQuotes(devnet, quoteRequest(devnet, user, "usdc", parseUnits("3", 6)));
    assert.deepEqual(
      quotes.quotes.map((q) => q.solverId),
      ["beta"],
    );
    assert.equal(quotes.metadata.solversTimedOut, 1);
  });

  test("hang: the solver holds requests without an answer until the knob is cleared", async () => {
    await setKnobs("beta", { hang: true });
    await assert.rejects(rawRequest("/solvers/beta/api/v1/assets", 400), { name: "TimeoutError" });
    const user = devnet.manifest.users[5]!;
    const quotes = await getQuotes(devnet, quoteRequest(devnet, user, "usdc", parseUnits("3", 6)));
    assert.deepEqual(
      quotes.quotes.map((q) => q.solverId),
      ["alpha"],
    );
    assert.equal(quotes.metadata.solversTimedOut, 1);
    const held = rawRequest("/solvers/beta/api/v1/assets", 10_000);
    await call(devnet.baseUrl, "DELETE", "/control/solvers/beta/faults");
    assert.equal((await held).status, 200);
  });

  test("down: the solver resets connections; quotes come from the other solver and status reads serve the last state", async () => {
    const order = await placeOrder("beta", 6);
    await setKnobs("beta", { down: true });
    await assert.rejects(rawRequest("/solvers/beta/api/v1/assets", 2000));
    const quotes = await getQuotes(
      devnet,
      quoteRequest(devnet, devnet.manifest.users[6]!, "usdc", parseUnits("3", 6)),
    );
    assert.deepEqual(
      quotes.quotes.map((q) => q.solverId),
      ["alpha"],
    );
    assert.equal(quotes.metadata.solversRespondedError, 1);
    const stale = await readOrder(devnet, order.orderId);
    assert.equal(stale.status, "created");
    await call(devnet.baseUrl, "DELETE", "/control/solvers/beta/faults");
    await waitForStatus(order.orderId, (s) => s === "finalized");
  });

  test("stallAfterExecuted: the order fills and settles on chain while its status stays executed with no fillTransaction", async () => {
    await setKnobs("beta", { stallAfterExecuted: true });
    const order = await placeOrder("beta", 7);
    const onChain = await pollUntil(
      "the order finalised on chain",
      async () => {
        const lifecycle = await events(order.orderId);
        return lifecycle.finalised === 1 && lifecycle;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    assert.deepEqual(onChain, { opens: 1, fills: 1, finalised: 1 });
    const read = await waitForStatus(order.orderId, (s) => s === "executed");
    assert.equal(read.fillTransaction, null);
    const again = await readOrder(devnet, order.orderId);
    assert.equal(again.status, "executed");
    assert.equal(again.fillTransaction, null);
  });

  test("reportOnce: one read reports a state behind the real one, another a state outside the enum, then reads are true again", async () => {
    devnet.committee.setDelayMs(600_000);
    const order = await placeOrder("alpha", 5);
    await waitForStatus(order.orderId, (s) => s === "settling");
    await setKnobs("alpha", { reportOnce: "backwards" });
    assert.equal((await readOrder(devnet, order.orderId)).status, "executed");
    assert.equal((await readOrder(devnet, order.orderId)).status, "settling");
    await setKnobs("alpha", { reportOnce: "unknown" });
    assert.equal((await readOrder(devnet, order.orderId)).status, "postFilled");
    assert.equal((await readOrder(devnet, order.orderId)).status, "settling");
    devnet.committee.setDelayMs(100);
    await waitForStatus(order.orderId, (s) => s === "finalized");
  });

  for (const [stage, expected] of [
    ["Prepare", { opens: 0, fills: 0, finalised: 0 }],
    ["Fill", { opens: 1, fills: 0, finalised: 0 }],
    ["PostFill", { opens: 1, fills: 1, finalised: 0 }],
    ["PreClaim", { opens: 1, fills: 1, finalised: 0 }],
    ["Claim", { opens: 1, fills: 1, finalised: 0 }],
  ] as const) {
    test(`failAt ${stage}: the order reports {"failed":["${stage}", …]} and goes no further on chain`, async () => {
      await setKnobs("alpha", { failAt: stage });
      const order = await placeOrder("alpha", 4);
      const failed = await waitForStatus(order.orderId, (s) => failedArm(s) !== undefined);
      const [failedStage, message] = failedArm(failed.status)!;
      assert.equal(failedStage, stage);
      assert.ok(message.length > 0);
      assert.deepEqual(await events(order.orderId), expected);
    });
  }

  test("aggregator rateLimited: every aggregator route answers 429 with Retry-After until cleared", async () => {
    assert.equal(
      (await call(devnet.baseUrl, "POST", "/control/aggregator/faults", { rateLimited: true })).status,
      200,
    );
    const quotes = await call(
      devnet.baseUrl,
      "POST",
      "/aggregator/api/v1/quotes",
      quoteRequest(devnet, devnet.manifest.users[5]!, "usdc", parseUnits("1", 6)),
    );
    assert.equal(quotes.status, 429);
    assert.equal(quotes.headers["retry-after"], "1");
    assert.equal((quotes.body as { error: string }).error, "RATE_LIMITED");
    assert.equal((await call(devnet.baseUrl, "DELETE", "/control/aggregator/faults")).status, 200);
    assert.equal((await call(devnet.baseUrl, "GET", "/aggregator/health")).status, 200);
  });

  test("aggregator down and hang: its routes reset or hold connections while the control routes keep working", async () => {
    assert.equal(
      (await call(devnet.baseUrl, "POST", "/control/aggregator/faults", { down: true })).status,
      200,
    );
    await assert.rejects(rawRequest("/aggregator/health", 2000));
    assert.equal(
      (await call(devnet.baseUrl, "POST", "/control/aggregator/faults", { down: false, hang: true })).status,
      200,
    );
    await assert.rejects(rawRequest("/aggregator/health", 400), { name: "TimeoutError" });
    const held = rawRequest("/aggregator/api/v1/solvers", 10_000);
    assert.equal((await call(devnet.baseUrl, "DELETE", "/control/aggregator/faults")).status, 200);
    const answer = await held;
    assert.equal(answer.status, 200);
    assert.equal((JSON.parse(answer.text) as { totalSolvers: number }).totalSolvers, 2);
    const health = await call(devnet.baseUrl, "GET", "/aggregator/health");
    assert.equal((health.body as { status: string }).status, "healthy");
  });
});
