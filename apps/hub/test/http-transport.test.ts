import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { cancellationOf, type HubAnswer, hubHeaders, successEnvelope } from "@hub/contract";
import type { SqlClient } from "@hub/store";
import {
  answerOf,
  assertRefusal,
  call,
  createTestHubApp,
  envelopeOf,
  GATEWAY_SECRET,
  gatewayHeaders,
  quoteBody,
  SUBJECT,
  startTestHub,
  testCatalog,
} from "./hub-fixture.js";

interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  chunked?: boolean;
}

function send(port: number, raw: RawRequest): Promise<HubAnswer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...raw.headers };
    if (raw.body !== undefined) {
      if (raw.chunked) headers["transfer-encoding"] = "chunked";
      else headers["content-length"] = String(Buffer.byteLength(raw.body));
    }
    const req = request({ host: "127.0.0.1", port, method: raw.method, path: raw.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const answerHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === "string") answerHeaders[name] = value;
        }
        resolve({ statusCode: res.statusCode ?? 0, headers: answerHeaders, body: Buffer.concat(chunks) });
      });
    });
    req.on("error", reject);
    if (raw.body !== undefined) req.write(raw.body);
    req.end();
  });
}

describe("the hub over real HTTP", () => {
  const openapiPath = new URL("../../../packages/contract/openapi.yaml", import.meta.url).pathname;
  const hub = startTestHub({ bodyLimitBytes: 2048 }, { openapiPath });
  let port = 0;
  before(async () => {
    await hub.app.listen({ host: "127.0.0.1", port: 0 });
    port = (hub.app.server.address() as AddressInfo).port;
  });
  after(() => hub.close());

  const cases: [string, RawRequest][] = [
    ["catalog", { method: "GET", path: "/v1/catalog" }],
    [
      "catalog with an ignored text body",
      { method: "GET", path: "/v1/catalog", headers: { "content-type": "text/plain" }, body: "hi" },
    ],
    [
      "GET with a JSON body",
      { method: "GET", path: "/v1/catalog", headers: { "content-type": "application/json" }, body: "{}" },
    ],
    [
      "GET with a JSON body and a path id longer than the router reads",
      {
        method: "GET",
        path: `/v1/status/${"a".repeat(2500)}`,
        headers: { "content-type": "application/json" },
        body: "{}",
      },
    ],
    [
      "GET with a chunked JSON body",
      {
        method: "GET",
        path: "/v1/catalog",
        headers: { "content-type": "application/json" },
        body: "{}",
        chunked: true,
      },
    ],
    [
      "quote",
      {
        method: "POST",
        path: "/v1/quote",
        headers: { ...SUBJECT, "content-type": "application/json" },
        body: JSON.stringify(quoteBody()),
      },
    ],
    [
      "malformed JSON",
      {
        method: "POST",
        path: "/v1/quote",
        headers: { ...SUBJECT, "content-type": "application/json" },
        body: "{",
      },
    ],
    [
      "empty body exactly JSON",
      {
        method: "POST",
        path: "/v1/quote",
        headers: { ...SUBJECT, "content-type": "application/json" },
        body: "",
      },
    ],
    [
      "empty body with charset",
      {
        method: "POST",
        path: "/v1/quote",
        headers: { ...SUBJECT, "content-type": "application/json; charset=utf-8" },
        body: "",
      },
    ],
    ["POST with no Content-Type and no body", { method: "POST", path: "/v1/order", headers: SUBJECT }],
    [
      "POST with a malformed media type",
      { method: "POST", path: "/v1/quote", headers: { ...SUBJECT, "content-type": "garbage" }, body: "{}" },
    ],
    [
      "POST with a text body",
      {
        method: "POST",
        path: "/v1/quote",
        headers: { ...SUBJECT, "content-type": "text/plain" },
        body: "{}",
      },
    ],
    [
      "over the limit",
      {
        method: "POST",
        path: "/v1/quote",
        headers: { ...SUBJECT, "content-type": "application/json" },
        body: JSON.stringify(quoteBody({ pad: "x".repeat(4000) })),
      },
    ],
    [
      "over the limit, chunked",
      {
        method: "POST",
        path: "/v1/quote",
        headers: { ...SUBJECT, "content-type": "application/json" },
        body: "x".repeat(5000),
        chunked: true,
      },
    ],
    [
      "first failing field",
      {
        method: "POST",
        path: "/v1/order/openfor",
        headers: { ...SUBJECT, "content-type": "application/json" },
        body: '{"quoteId":"q"}',
      },
    ],
    ["orders", { method: "GET", path: "/v1/orders?limit=5", headers: SUBJECT }],
    ["bad limit", { method: "GET", path: "/v1/orders?limit=0", headers: SUBJECT }],
    ["missing subject", { method: "GET", path: "/v1/order/0xab/status" }],
    ["unknown order", { method: "GET", path: "/v1/status/abc" }],
    ["fill", { method: "GET", path: "/v1/onchain/0xab/fill?x=1" }],
    ["refund", { method: "GET", path: "/v1/onchain/0xab/refund" }],
    ["encoded path parameter", { method: "GET", path: "/v1/onchain/0x%61b/fill" }],
    ["tx lookup", { method: "GET", path: "/v1/onchain/tx/eip155:31337/0xab/order" }],
    ["raw order", { method: "GET", path: "/v1/onchain/0xab/order" }],
    ["unknown route", { method: "GET", path: "/v1/nothing" }],
    [
      "wrong method",
      { method: "PUT", path: "/v1/quote", headers: { "content-type": "application/json" }, body: "{}" },
    ],
    ["HEAD", { method: "HEAD", path: "/v1/catalog" }],
    ["bad percent-encoding", { method: "GET", path: "/v1/status/%E0%A4%A" }],
    ["long path parameter", { method: "GET", path: `/v1/status/${"a".repeat(500)}` }],
  ];

  test("both transports give the same status, headers and bytes for the same call", async () => {
    for (const [name, raw] of cases) {
      const headers = {
        ...gatewayHeaders(),
        [hubHeaders.requestId]: `parity-${name.replace(/\W+/g, "-")}`,
        ...raw.headers,
      };
      const overHttp = answerOf(await send(port, { ...raw, headers }), raw.method, raw.path);
      const inProcess = await hub.handle({
        method: raw.method,
        url: raw.path,
        headers,
        ...(raw.body === undefined ? {} : { body: Buffer.from(raw.body) }),
      });
      assert.equal(overHttp.statusCode, inProcess.statusCode, name);
      assert.equal(overHttp.headers["x-request-id"], headers[hubHeaders.requestId], name);
      assert.equal(overHttp.headers["content-type"], inProcess.headers["content-type"], name);
      if (raw.method !== "HEAD") {
        assert.equal(overHttp.body.toString(), inProcess.body.toString(), name);
        if (raw.path !== "/v1/openapi.yaml") envelopeOf(overHttp);
      }
    }
  });

  test("GET /v1/catalog serves the catalog file's content, the same on every call", async () => {
    const first = envelopeOf(
      await send(port, { method: "GET", path: "/v1/catalog", headers: gatewayHeaders() }),
    );
    assert.deepEqual(first.data, testCatalog());
    const headers = { ...gatewayHeaders(), [hubHeaders.requestId]: "cat-1" };
    const raw = await send(port, { method: "GET", path: "/v1/catalog", headers });
    assert.equal(raw.body.toString(), JSON.stringify(successEnvelope(testCatalog(), "cat-1")));
  });

  test("GET /v1/openapi.yaml serves the contract's document as application/yaml", async () => {
    const answer = await send(port, { method: "GET", path: "/v1/openapi.yaml", headers: gatewayHeaders() });
    assert.equal(answer.statusCode, 200);
    assert.match(answer.headers["content-type"] ?? "", /^application\/yaml/);
    assert.ok(answer.headers["x-request-id"]);
    assert.equal(answer.body.toString(), readFileSync(openapiPath, "utf8"));
  });

  test("GET /livez, /readyz and its alias /healthz answer 200 without any credential", async () => {
    const live = await send(port, { method: "GET", path: "/livez" });
    assert.equal(live.statusCode, 200);
    assert.deepEqual(JSON.parse(live.body.toString()), { status: "live" });
    for (const path of ["/readyz", "/healthz"]) {
      const answer = await send(port, { method: "GET", path });
      assert.equal(answer.statusCode, 200, path);
      // This hub has no database, upstream or chain: nothing to check.
      assert.deepEqual(JSON.parse(answer.body.toString()), {
        status: "ready",
        notReady: [],
        degraded: [],
        checks: [],
      });
    }
  });

  test("the hub's metrics count calls by operationId and code and never show a credential", async () => {
    await send(port, { method: "GET", path: "/v1/catalog", headers: gatewayHeaders() });
    await send(port, { method: "GET", path: "/v1/status/x", headers: gatewayHeaders() });
    const text = await hub.metrics.metrics();
    assert.match(text, /hub_requests_total\{operation="getCatalog",code="OK"\} \d+/);
    assert.match(text, /hub_requests_total\{operation="getHubStatus",code="EIN0009"\} \d+/);
    assert.match(
      text,
      /hub_request_duration_seconds_bucket\{le="0.005",operation="getCatalog",code="OK"\} \d+/,
    );
    assert.doesNotMatch(text, new RegExp(GATEWAY_SECRET));
    assert.doesNotMatch(text, /user-1|org_test/);
  });

  test("GET /metrics is not served on the hub's listener, with or without the gateway credential", async () => {
    await send(port, { method: "GET", path: "/v1/catalog", headers: gatewayHeaders() });
    for (const headers of [{}, gatewayHeaders()]) {
      const answer = await send(port, { method: "GET", path: "/metrics", headers });
      assert.equal(answer.statusCode, 404);
      assert.doesNotMatch(answer.body.toString(), /hub_requests_total/);
    }
  });

  test("a call without the gateway credential over HTTP answers EPX0004 (404)", async () => {
    const answer = await send(port, {
      method: "GET",
      path: "/v1/catalog",
      headers: { [hubHeaders.requestId]: "direct-1" },
    });
    assertRefusal(answer, "EPX0004");
    assert.equal(answer.statusCode, 404);
  });
});

describe("failures and cancellation", () => {
  /** A database whose every statement fails with this error: the store is a seam outside the hub. */
  function failingDatabase(error: Error & { code?: string }): SqlClient {
    const fail = async () => Promise.reject(error);
    return {
      driver: "postgres",
      query: fail,
      exec: fail,
      run: fail,
      transaction: fail,
      close: async () => {},
    };
  }

  async function listOrdersWith(sql: SqlClient) {
    const logLines: string[] = [];
    const hub = createTestHubApp({
      sql,
      logger: (await import("pino")).pino(
        { level: "info" },
        { write: (line: string) => logLines.push(line) },
      ),
    });
    const answer = await call(hub, "GET", "/v1/orders", {
      headers: { [hubHeaders.requestId]: "fail-1", ...SUBJECT },
    });
    await hub.close();
    const logged = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line.request_id === "fail-1");
    return { answer, logged };
  }

  test("an unexpected failure answers EIN0049 with nothing internal, logged with the request id", async () => {
    const { answer, logged } = await listOrdersWith(
      failingDatabase(Object.assign(new Error('column "secret_x" does not exist'), { code: "42703" })),
    );
    const entry = assertRefusal(answer, "EIN0049");
    assert.deepEqual(entry, { error_code: "EIN0049" });
    assert.doesNotMatch(answer.body.toString(), /secret_x|42703|Error|at /);
    assert.ok(logged, "the failure is logged with the request id");
    assert.equal(logged.level, 50);
    assert.equal(logged.operationId, "listOrders");
    assert.match(JSON.stringify(logged.err), /secret_x/);
  });

  test("a database out of reach answers EIN0050 (retry later) with nothing internal and one warning line", async () => {
    const { answer, logged } = await listOrdersWith(
      failingDatabase(
        Object.assign(new Error("connect ECONNREFUSED 10.0.0.7:5432"), { code: "ECONNREFUSED" }),
      ),
    );
    assertRefusal(answer, "EIN0050");
    assert.doesNotMatch(answer.body.toString(), /ECONNREFUSED|5432|Error|at /);
    assert.ok(logged, "the outage is logged with the request id");
    assert.equal(logged.level, 40);
    assert.equal(logged.err, undefined, "no stack trace");
    assert.match(String(logged.reason), /ECONNREFUSED/);
  });

  test("the hub refuses to start without its OpenAPI document", async () => {
    assert.throws(
      () => startTestHub({}, { openapiPath: "/nonexistent/openapi.yaml" }),
      /OpenAPI document \/nonexistent\/openapi.yaml cannot be read/,
    );
  });

  test("each answered call is logged as JSON at debug with its request id, operationId and code", async () => {
    const hub = startTestHub({}, { logLevel: "debug" });
    await call(hub, "GET", "/v1/catalog", { headers: { [hubHeaders.requestId]: "log-1" } });
    await call(hub, "GET", "/v1/status/x", { headers: { [hubHeaders.requestId]: "log-2" } });
    const lines = hub.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const first = lines.find((line) => line.request_id === "log-1");
    const second = lines.find((line) => line.request_id === "log-2");
    assert.equal(first?.operationId, "getCatalog");
    assert.equal(first?.code, "OK");
    assert.equal(second?.code, "EIN0009");
    assert.doesNotMatch(hub.logLines.join("\n"), new RegExp(GATEWAY_SECRET));
    await hub.close();
  });

  test("the gateway's X-Service-Org is required on charged routes; its absence is an internal failure", async () => {
    const hub = startTestHub();
    const headers: Record<string, string> = {
      ...gatewayHeaders(),
      ...SUBJECT,
      "content-type": "application/json",
    };
    delete headers[hubHeaders.organization];
    const answer = await hub.handle({
      method: "POST",
      url: "/v1/quote",
      headers,
      body: Buffer.from(JSON.stringify(quoteBody())),
    });
    assertRefusal(answer, "EIN0049");
    await hub.close();
  });

  test("handle rejects with the signal's reason when the gateway already gave up", async () => {
    const hub = startTestHub();
    const controller = new AbortController();
    controller.abort(new Error("gateway timeout"));
    await assert.rejects(
      hub.handle({
        method: "GET",
        url: "/v1/catalog",
        headers: gatewayHeaders(),
        deadline: cancellationOf(controller.signal),
      }),
      /gateway timeout/,
    );
    await hub.close();
  });

  test("a call whose signal fires while it is at work stops before the handler and rejects with the reason", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { createMemoryCounters } = await import("@hub/counters");
    const memory = createMemoryCounters();
    const logLines: string[] = [];
    const hub = createTestHubApp({
      // The counters are a seam outside the hub; holding one take models a slow Redis round trip.
      counters: { take: async (...args) => gate.then(() => memory.take(...args)) },
      logger: (await import("pino")).pino(
        { level: "info" },
        { write: (line: string) => logLines.push(line) },
      ),
    });
    await hub.app.listen({ host: "127.0.0.1", port: 0 });
    const controller = new AbortController();
    const pending = hub.handle({
      method: "POST",
      url: "/v1/quote",
      headers: { ...gatewayHeaders(), ...SUBJECT, "content-type": "application/json" },
      body: Buffer.from(JSON.stringify(quoteBody())),
      deadline: cancellationOf(controller.signal),
    });
    controller.abort(new Error("cut at 20 s"));
    release();
    await assert.rejects(pending, /cut at 20 s/);
    assert.equal(logLines.length, 0, "a call the gateway gave up is not logged as a failure");
    const metrics = await hub.metrics.metrics();
    assert.match(metrics, /hub_requests_total\{operation="createQuote",code="ABORTED"\} 1/);
    assert.doesNotMatch(metrics, /operation="createQuote",code="EIN0008"/, "the quote round never ran");
    assert.equal(envelopeOf(await call(hub, "GET", "/v1/catalog")).success, true, "the hub keeps serving");
    await hub.close();
  });
});

describe("requests Node cannot parse", () => {
  test("malformed HTTP still gets an EMC0005 envelope with a request id, then the connection closes", async () => {
    const { createConnection } = await import("node:net");
    const hub = startTestHub();
    await hub.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = hub.app.server.address() as AddressInfo;
    for (const garbage of ["NOT HTTP AT ALL\r\n\r\n", "GET /v1/catalog HTTP/1.1\r\nBad Header\r\n\r\n"]) {
      const raw = await new Promise<string>((resolve, reject) => {
        const socket = createConnection({ host: "127.0.0.1", port }, () => socket.write(garbage));
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk.toString();
        });
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
      });
      const [head, body] = raw.split("\r\n\r\n") as [string, string];
      assert.match(head, /^HTTP\/1.1 400 /);
      const requestId = /x-request-id: (\S+)/i.exec(head)?.[1];
      const answer: HubAnswer = {
        statusCode: 400,
        headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId ?? "" },
        body: Buffer.from(body),
      };
      assertRefusal(answer, "EMC0005");
    }
    await hub.close();
  });
});

describe("the hub's own listener and a slow body", () => {
  test("a body that does not arrive within bodyReadTimeoutMs reads as empty (EMC0005) and the connection closes", async () => {
    const { createConnection } = await import("node:net");
    const hub = startTestHub({ bodyReadTimeoutMs: 200 });
    await hub.app.listen({ host: "127.0.0.1", port: 0 });
    const { port } = hub.app.server.address() as AddressInfo;
    const headers = Object.entries({ ...gatewayHeaders(), ...SUBJECT, "content-type": "application/json" })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("");
    const raw = await new Promise<string>((resolve, reject) => {
      // 100 bytes declared, 2 sent, and the socket left open: only the hub's timeout can answer.
      const socket = createConnection({ host: "127.0.0.1", port }, () =>
        socket.write(`POST /v1/quote HTTP/1.1\r\nHost: x\r\n${headers}Content-Length: 100\r\n\r\n{"`),
      );
      let text = "";
      const timer = setTimeout(() => reject(new Error(`no answer closed in 5 s: ${text}`)), 5_000);
      socket.on("data", (chunk) => {
        text += chunk.toString();
      });
      socket.on("close", () => {
        clearTimeout(timer);
        resolve(text);
      });
      socket.on("error", reject);
    });
    const [head, body] = raw.split("\r\n\r\n") as [string, string];
    assert.match(head, /^HTTP\/1.1 400 /);
    assert.match(head, /connection: close/i);
    const requestId = /x-request-id: (\S+)/i.exec(head)?.[1];
    const answer: HubAnswer = {
      statusCode: 400,
      headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId ?? "" },
      body: Buffer.from(body),
    };
    assertRefusal(answerOf(answer, "POST", "/v1/quote"), "EMC0005");
    await hub.close();
  });
});
