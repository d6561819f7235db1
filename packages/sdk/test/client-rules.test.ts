import assert from "node:assert/strict";
import { test } from "node:test";
import { errorCatalogue, hubOrderId, routeTable } from "@hub/contract";
import { createHubClient, DEFAULT_TIMEOUTS, errorBlocks, hubOrderIdOf } from "../src/index.js";
import { fail, ok, rejection, scriptedServer } from "./scripted-server.js";

const KEY = `svc_sk_${"a".repeat(43)}`;
const fast = { baseDelayMs: 20, maxDelayMs: 80 };

test("every route of the contract's table is a client method named after its operationId; the short names are deprecated aliases", () => {
  const client = createHubClient({ baseUrl: "http://127.0.0.1:1/v1", apiKey: KEY, subject: "s" });
  // The two registrations are submit's (it picks the lane's); the OpenAPI document is no client call.
  const bySubmit = new Set(["submitOpenForOrder", "createOrder", "getOpenapi"]);
  for (const { operationId } of routeTable) {
    if (bySubmit.has(operationId)) continue;
    assert.equal(typeof (client as unknown as Record<string, unknown>)[operationId], "function", operationId);
  }
  const aliases = {
    catalog: client.getCatalog,
    quote: client.createQuote,
    preview: client.previewQuote,
    prepare: client.prepareQuote,
    orderStatus: client.getOrderStatus,
    hubStatus: client.getHubStatus,
    fill: client.getOnchainFill,
    orderByTransaction: client.getOrderByTransaction,
    refund: client.getOnchainRefund,
  };
  for (const [alias, method] of Object.entries(aliases)) {
    assert.equal((client as unknown as Record<string, unknown>)[alias], method, alias);
  }
});

test("every catalogue code has the catalogue's block, and hubOrderId is the contract's derivation", async () => {
  for (const [code, spec] of Object.entries(errorCatalogue)) {
    assert.equal(errorBlocks[code as keyof typeof errorBlocks], spec.block, code);
  }
  assert.deepEqual(Object.keys(errorBlocks).sort(), Object.keys(errorCatalogue).sort());
  for (const quoteId of ["q_r1_abc", "quote-1", "ü"])
    assert.equal(await hubOrderIdOf(quoteId), hubOrderId(quoteId));
});

test("a call sends one credential, the subject and a JSON body, and returns the envelope's data", async () => {
  const server = await scriptedServer([() => ok({ quoteId: "q1" }), () => ok({ families: { evm: [] } })]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "user-1" });
    assert.deepEqual(
      await client.createQuote({ sourceAsset: "a", destinationAsset: "b", amount: "1", recipient: "r" }),
      { quoteId: "q1" },
    );
    const [post] = server.received;
    assert.equal(post?.headers["x-api-key"], KEY);
    assert.equal(post?.headers["x-project-id"], undefined);
    assert.equal(post?.headers["x-service-subject"], "user-1");
    assert.equal(post?.headers["content-type"], "application/json");
    assert.deepEqual(JSON.parse(post!.body), {
      sourceAsset: "a",
      destinationAsset: "b",
      amount: "1",
      recipient: "r",
    });

    const byProject = createHubClient({
      baseUrl: `${server.baseUrl}/`,
      projectId: "proj_x",
      subject: "visitor",
    });
    await byProject.getCatalog();
    const get = server.received[1]!;
    assert.equal(get.path, "/v1/catalog");
    assert.equal(get.headers["x-project-id"], "proj_x");
    assert.equal(get.headers["x-api-key"], undefined);
    assert.equal(get.body, "", "a GET carries no body");
    assert.equal(get.headers["content-type"], undefined);
  } finally {
    await server.close();
  }
  assert.throws(
    () => createHubClient({ baseUrl: "http://x/v1", apiKey: KEY, projectId: "p", subject: "s" }),
    TypeError,
  );
  assert.throws(() => createHubClient({ baseUrl: "http://x/v1", subject: "s" }), TypeError);
});

test("a terminal code is thrown at once with code, block, reference, params, requestId and status", async () => {
  const server = await scriptedServer([
    () =>
      fail("EIN0001", { reference: "amount", params: ["must be positive"], message: "Invalid form field" }),
    () => fail("EPX0002", { status: 401 }),
  ]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s", retry: fast });
    const error = await rejection(
      client.createQuote({ sourceAsset: "a", destinationAsset: "b", amount: "0", recipient: "r" }),
    );
    assert.equal(error.code, "EIN0001");
    assert.equal(error.block, "terminal");
    assert.equal(error.reference, "amount");
    assert.deepEqual(error.params, ["must be positive"]);
    assert.equal(error.requestId, "req-EIN0001");
    assert.equal(error.status, 400);
    assert.equal(error.message, "Invalid form field");
    const refusedKey = await rejection(client.getCatalog());
    assert.deepEqual([refusedKey.code, refusedKey.status, refusedKey.block], ["EPX0002", 401, "terminal"]);
    assert.equal(server.received.length, 2, "no terminal code is retried");
  } finally {
    await server.close();
  }
});

test("busy codes wait error_params[0] ms or Retry-After, then retry the identical request", async () => {
  const server = await scriptedServer([
    () => fail("EIN0080", { params: ["150"] }),
    () => fail("EPX0082", { status: 429, params: ["100"], headers: { "retry-after": "1" } }),
    () => fail("EPX0081", { status: 429, headers: { "retry-after": "1" } }),
    () => ok({ orderId: "o" }),
  ]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s", retry: fast });
    assert.deepEqual(
      await client.prepareQuote({
        sourceAsset: "a",
        destinationAsset: "b",
        amount: "1",
        recipient: "r",
        preparationId: "p1",
        provider: "x",
      }),
      { orderId: "o" },
    );
    const [a, b, c, d] = server.received.map((r) => r.at) as [number, number, number, number];
    assert.ok(b - a >= 150, `EIN0080 waited error_params[0] = 150 ms (waited ${b - a})`);
    assert.ok(
      c - b >= 100 && c - b < 900,
      `EPX0082 waited error_params[0], not Retry-After (waited ${c - b})`,
    );
    assert.ok(d - c >= 1000, `EPX0081 waited Retry-After = 1 s (waited ${d - c})`);
    assert.ok(
      server.received.every((r) => r.body === server.received[0]!.body),
      "the identical body every time",
    );
  } finally {
    await server.close();
  }
});

test("a busy code naming a wait past setTimeout's 24.8-day range still waits, rather than retrying at once", async () => {
  const server = await scriptedServer([() => fail("EIN0080", { params: ["3000000000"] }), () => ok({})]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s", retry: fast });
    const error = await rejection(client.getCatalog({ signal: AbortSignal.timeout(300) }));
    assert.equal(error.code, "ESDK_ABORTED");
    assert.equal(server.received.length, 1, "no second attempt within the named wait");
  } finally {
    await server.close();
  }
});

test("a busy code without error_params reads Retry-After as an HTTP date too, and one that names no wait waits busyFallbackMs", async () => {
  const inTwoSeconds = new Date(Math.ceil(Date.now() / 1000) * 1000 + 2000).toUTCString();
  const server = await scriptedServer([
    () => fail("EPX0080", { status: 429, headers: { "retry-after": inTwoSeconds } }),
    () => fail("EIN0081"),
    () => ok({ families: { evm: [] } }),
  ]);
  try {
    const client = createHubClient({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      subject: "s",
      retry: { busyFallbackMs: 300 },
    });
    await client.getCatalog();
    const [a, b, c] = server.received.map((r) => r.at) as [number, number, number];
    assert.ok(b - a >= 900, `waited until the Retry-After date (${b - a} ms)`);
    assert.ok(c - b >= 300, `EIN0081 names no wait: busyFallbackMs (${c - b} ms)`);
  } finally {
    await server.close();
  }
});

test("availability codes retry with a capped back-off and give up after maxAttempts; upstreamAuth is never retried", async () => {
  const server = await scriptedServer([
    () => fail("EIN0050"),
    () => fail("EPX0053", { status: 503 }),
    () => ({ status: 502, text: "<html>bad gateway</html>" }),
    () => fail("EIN0081"),
    () => fail("EIN0050", { params: ["upstreamAuth"] }),
  ]);
  try {
    const client = createHubClient({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      subject: "s",
      retry: { maxAttempts: 3, baseDelayMs: 40, maxDelayMs: 60 },
    });
    const error = await rejection(client.getCatalog());
    assert.equal(error.code, "ESDK_NOT_ENVELOPE", "an answer without the envelope is service unavailable");
    assert.equal(error.block, "availability");
    assert.equal(error.status, 502);
    assert.equal(server.received.length, 3, "maxAttempts = 3");
    const [a, b, c] = server.received.map((r) => r.at) as [number, number, number];
    assert.ok(b - a >= 40, `first back-off is baseDelayMs (${b - a})`);
    assert.ok(c - b >= 60, `second back-off doubles, capped at maxDelayMs (${c - b})`);

    const busy = createHubClient({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      subject: "s",
      retry: { maxAttempts: 1 },
    });
    assert.equal(
      (await rejection(busy.getCatalog())).code,
      "EIN0081",
      "one attempt: the busy code is thrown",
    );
    const auth = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s", retry: fast });
    const refused = await rejection(auth.getCatalog());
    assert.deepEqual([refused.code, refused.params[0]], ["EIN0050", "upstreamAuth"]);
    assert.equal(server.remaining(), 0);
    assert.equal(server.received.length, 5, "upstreamAuth is an operator matter: not retried");
  } finally {
    await server.close();
  }
});

test("quote routes wait longer than other routes; both defaults are above the gateway's 20 s and 10 s", async () => {
  assert.ok(DEFAULT_TIMEOUTS.quoteMs > 20_000 && DEFAULT_TIMEOUTS.otherMs > 10_000);
  const server = await scriptedServer([
    () => ok({ quoteId: "q" }, { delayMs: 250 }),
    () => ok({}, { delayMs: 250 }),
  ]);
  try {
    const client = createHubClient({
      baseUrl: server.baseUrl,
      apiKey: KEY,
      subject: "s",
      timeouts: { quoteMs: 2_000, otherMs: 100 },
      retry: { maxAttempts: 1 },
    });
    assert.deepEqual(
      await client.createQuote({ sourceAsset: "a", destinationAsset: "b", amount: "1", recipient: "r" }),
      { quoteId: "q" },
    );
    const error = await rejection(client.getOnchainFill("0xabc"));
    assert.deepEqual([error.code, error.block, error.status], ["ESDK_TIMEOUT", "availability", 0]);
  } finally {
    await server.close();
  }
});

test("a caller's AbortSignal ends a call at once, while waiting for an answer or for a back-off, and is never retried", async () => {
  const server = await scriptedServer([
    () => ok({}, { delayMs: 5_000 }),
    () => fail("EIN0080", { params: ["5000"] }),
  ]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "s" });
    const during = new AbortController();
    const started = Date.now();
    setTimeout(() => during.abort(), 50);
    assert.equal((await rejection(client.getCatalog({ signal: during.signal }))).code, "ESDK_ABORTED");
    assert.ok(Date.now() - started < 4_000, "did not wait for the held answer");
    const backingOff = new AbortController();
    setTimeout(() => backingOff.abort(), 200);
    assert.equal((await rejection(client.getCatalog({ signal: backingOff.signal }))).code, "ESDK_ABORTED");
    assert.equal(server.received.length, 2, "neither was retried");
  } finally {
    await server.close();
  }
});

test("listOrders runs the canary check once, then refuses a page whose subject differs", async () => {
  const echo =
    (orders: unknown[] = []) =>
    (r: { headers: Record<string, unknown> }) =>
      ok({ subject: r.headers["x-service-subject"], orders, nextCursor: null });
  const server = await scriptedServer([
    echo(),
    echo([{ orderId: "mine" }]),
    echo(),
    () => ok({ subject: "someone-else", orders: [{ orderId: "theirs" }], nextCursor: null }),
    echo([{ orderId: "leak" }]),
    () => ok({ subject: "canary-other", orders: [], nextCursor: null }),
  ]);
  try {
    const client = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "user-7" });
    const page = await client.listOrders({ limit: 10, cursor: "c1" });
    assert.deepEqual(page.orders, [{ orderId: "mine" }]);
    const [canary, real] = server.received;
    assert.match(String(canary?.headers["x-service-subject"]), /^canary-[0-9a-f-]{36}$/);
    assert.equal(real?.headers["x-service-subject"], "user-7");
    assert.deepEqual([real?.query.get("limit"), real?.query.get("cursor")], ["10", "c1"]);
    assert.deepEqual((await client.listOrders()).orders, [], "the canary ran once per client");
    assert.equal((await rejection(client.listOrders())).code, "ESDK_SUBJECT_MISMATCH");

    for (const expected of ["ESDK_CANARY", "ESDK_CANARY"]) {
      const fresh = createHubClient({ baseUrl: server.baseUrl, apiKey: KEY, subject: "user-8" });
      assert.equal((await rejection(fresh.listOrders())).code, expected);
    }
    assert.equal(server.received.length, 6, "after a failed canary no page is read");
  } finally {
    await server.close();
  }
});
