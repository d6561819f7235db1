import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { createServer } from "node:net";
import { Readable } from "node:stream";
import { after, before, describe, test } from "node:test";
import type { HubAnswer, HubCall, HubTransport } from "@hub/contract";
import { createHttpHubTransport, createInProcessHubTransport } from "../src/index.js";
import { assertRefusal, callGateway } from "./fixtures/call-gateway.js";
import { createEchoHub, type EchoHub } from "./fixtures/echo-hub.js";
import { HUB_SECRET, type StartedGateway, startGateway } from "./fixtures/start-gateway.js";

/** A transport factory that may start a listener; its closer runs after the gateway's. */
type TransportKind = {
  name: string;
  make(hub: EchoHub): Promise<{ transport: HubTransport; stop(): Promise<void> }>;
};

const kinds: TransportKind[] = [
  {
    name: "in-process transport",
    make: async (hub) => ({ transport: createInProcessHubTransport(hub), stop: async () => {} }),
  },
  {
    name: "HTTP transport",
    make: async (hub) => {
      const listener = await hub.listen();
      return {
        transport: createHttpHubTransport({ url: listener.url, connections: 4 }),
        stop: listener.close,
      };
    },
  },
];

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A hub answer that waits, and reports whether the gateway's deadline aborted it. */
function stallingHub(hub: EchoHub, ms: number, seen: { aborted: boolean; finished: boolean }[]) {
  return async (call: HubCall): Promise<HubAnswer> => {
    const record = { aborted: false, finished: false };
    seen.push(record);
    call.deadline?.signal.addEventListener("abort", () => {
      record.aborted = true;
    });
    await delay(ms);
    record.finished = true;
    return hub.echo(call);
  };
}

for (const kind of kinds) {
  describe(`gateway to hub over the ${kind.name}`, () => {
    let gw: StartedGateway;
    let stop: () => Promise<void>;
    let key: string;

    before(async () => {
      const hub = createEchoHub();
      const made = await kind.make(hub);
      gw = await startGateway({
        hub,
        transport: () => made.transport,
        config: { timeoutMs: 300, quoteTimeoutMs: 600 },
      });
      stop = made.stop;
      key = gw.access.addKey("org_f").key;
    });
    after(async () => {
      await gw.close();
      await stop();
    });

    test("only the path, the body, X-Service-Subject and the gateway's own headers reach the hub", async () => {
      gw.hub.behave(undefined);
      const body = JSON.stringify({ sourceAsset: "a", amount: "1" });
      const answer = await callGateway(gw.origin, "POST", "/v1/quote?debug=1", {
        headers: {
          "x-api-key": key,
          "content-type": "application/json",
          "x-service-subject": "user.1@example",
          cookie: "session=1",
          authorization: "Bearer x",
          "x-service-org": "org_spoofed",
          "x-gateway-credential": "spoofed",
          "x-forwarded-for": "10.9.9.9",
          "x-request-id": "caller-chosen",
          "accept-language": "de",
          "user-agent": "caller",
        },
        body,
      });
      assert.equal(answer.status, 200);
      const seen = answer.json.data;
      assert.equal(seen.method, "POST");
      assert.equal(seen.url, "/v1/quote");
      assert.equal(Buffer.from(seen.body, "base64").toString(), body);
      const headers = seen.headers as Record<string, string>;
      assert.equal(headers["x-service-org"], "org_f");
      assert.equal(headers["x-gateway-credential"], HUB_SECRET);
      assert.equal(headers["x-service-subject"], "user.1@example");
      assert.equal(headers["accept-language"], "en");
      assert.equal(headers["user-agent"], "intent-hub-gateway/0.1.0");
      assert.equal(headers["content-type"], "application/json");
      assert.equal(headers["x-forwarded-for"], "127.0.0.1");
      assert.notEqual(headers["x-request-id"], "caller-chosen");
      assert.equal(headers["x-request-id"], answer.headers["x-request-id"]);
      for (const name of ["cookie", "authorization", "x-api-key"])
        assert.equal(headers[name], undefined, name);
    });

    test("the query string reaches the hub only on GET /orders and the refund route", async () => {
      const list = await callGateway(gw.origin, "GET", "/v1/orders?cursor=abc&limit=5", {
        headers: { "x-api-key": key, "x-service-subject": "u" },
      });
      assert.equal(list.json.data.url, "/v1/orders?cursor=abc&limit=5");
      const refund = await callGateway(gw.origin, "GET", "/v1/onchain/0xab/refund?chain=x", {
        headers: { "x-api-key": key },
      });
      assert.equal(refund.json.data.url, "/v1/onchain/0xab/refund?chain=x");
      const catalog = await callGateway(gw.origin, "GET", "/v1/catalog?x=1", {
        headers: { "x-api-key": key },
      });
      assert.equal(catalog.json.data.url, "/v1/catalog");
      const status = await callGateway(gw.origin, "GET", "/v1/status/abc?y=2", {
        headers: { "x-api-key": key },
      });
      assert.equal(status.json.data.url, "/v1/status/abc");
    });

    test("the subject header is forwarded unchanged, even when the hub will refuse it", async () => {
      const answer = await callGateway(gw.origin, "GET", "/v1/order/abc/status", {
        headers: { "x-api-key": key, "x-service-subject": "not valid!" },
      });
      assert.equal(answer.json.data.headers["x-service-subject"], "not valid!");
    });

    test("hub answers pass back unchanged: status, body bytes and the hub's request id", async () => {
      const bytes = Buffer.from(
        '{"success":false,"request_id":"hub-rid","errors":[{"error_code":"EIN0009"}],"message":"x"}',
      );
      gw.hub.behave(async () => ({
        statusCode: 400,
        headers: { "content-type": "application/json; charset=utf-8", "x-request-id": "hub-rid" },
        body: bytes,
      }));
      try {
        const answer = await callGateway(gw.origin, "GET", "/v1/order/abc/status", {
          headers: { "x-api-key": key, "x-service-subject": "u" },
        });
        assert.equal(answer.status, 400);
        assert.deepEqual(answer.body, bytes);
        assert.equal(answer.headers["x-request-id"], "hub-rid");
        assert.ok(answer.headers["ratelimit-limit"]);
      } finally {
        gw.hub.behave(undefined);
      }
    });

    test("a body of exactly 64 KiB reaches the hub byte for byte", async () => {
      const body = Buffer.alloc(65_536, 0x61);
      const answer = await callGateway(gw.origin, "POST", "/v1/order", {
        headers: { "x-api-key": key, "content-type": "application/json" },
        body,
      });
      assert.equal(answer.status, 200);
      assert.deepEqual(Buffer.from(answer.json.data.body, "base64"), body);
    });

    test("a body over 64 KiB is EPX0005 (413), declared or chunked, and never reaches the hub", async () => {
      const before = gw.hub.calls.length;
      const declared = await callGateway(gw.origin, "POST", "/v1/order", {
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: Buffer.alloc(65_537, 0x61),
      });
      assertRefusal(declared, "EPX0005", 413);
      assert.ok(declared.headers["ratelimit-limit"]);
      const chunks = Readable.from(Array.from({ length: 20 }, () => Buffer.alloc(4096, 0x62)));
      const { request } = await import("undici");
      const response = await request(`${gw.origin}/v1/order`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: chunks,
      });
      const json = (await response.body.json()) as { errors: { error_code: string }[] };
      assert.equal(response.statusCode, 413);
      assert.equal(json.errors[0]?.error_code, "EPX0005");
      assert.equal(gw.hub.calls.length, before);
    });

    test("a GET with a body passes it on, so the hub can apply its own rule", async () => {
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: "{}",
      });
      assert.equal(Buffer.from(answer.json.data.body, "base64").toString(), "{}");
    });

    test("a hub slower than the timeout is EPX0052 (504) and the hub call is aborted", async () => {
      const seen: { aborted: boolean; finished: boolean }[] = [];
      gw.hub.behave(stallingHub(gw.hub, 1_000, seen));
      try {
        const started = Date.now();
        const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
        assertRefusal(answer, "EPX0052", 504);
        assert.ok(Date.now() - started < 900);
        await delay(50);
        assert.equal(seen[0]?.aborted, true);
      } finally {
        gw.hub.behave(undefined);
      }
    });

    test("quote routes wait the longer quote timeout", async () => {
      gw.hub.behave(async (call) => {
        await delay(450);
        return gw.hub.echo(call);
      });
      try {
        const quote = await callGateway(gw.origin, "POST", "/v1/quote", {
          headers: { "x-api-key": key, "content-type": "application/json", "x-service-subject": "u" },
          body: "{}",
        });
        assert.equal(quote.status, 200);
        const other = await callGateway(gw.origin, "POST", "/v1/order", {
          headers: { "x-api-key": key, "content-type": "application/json", "x-service-subject": "u" },
          body: "{}",
        });
        assertRefusal(other, "EPX0052", 504);
      } finally {
        gw.hub.behave(undefined);
      }
    });

    test("a submission keeps running at the hub when the client disconnects", async () => {
      const seen: { aborted: boolean; finished: boolean }[] = [];
      gw.hub.behave(stallingHub(gw.hub, 200, seen));
      try {
        const controller = new AbortController();
        const pending = callGateway(gw.origin, "POST", "/v1/order/openfor", {
          headers: { "x-api-key": key, "content-type": "application/json", "x-service-subject": "u" },
          body: '{"quoteRequestId":"q","quoteId":"q"}',
          signal: controller.signal,
        });
        await delay(60);
        controller.abort();
        await assert.rejects(pending);
        await delay(300);
        assert.equal(seen[0]?.finished, true);
        assert.equal(seen[0]?.aborted, false);
      } finally {
        gw.hub.behave(undefined);
      }
    });

    test("a hub answering a server error or something other than the envelope is EPX0051", async () => {
      const answers: HubAnswer[] = [
        {
          statusCode: 500,
          headers: { "content-type": "application/json" },
          body: Buffer.from('{"success":false}'),
        },
        { statusCode: 200, headers: { "content-type": "text/html" }, body: Buffer.from("<html>oops</html>") },
        {
          statusCode: 200,
          headers: { "content-type": "application/json" },
          body: Buffer.from('{"success":tr'),
        },
      ];
      try {
        for (const hubAnswer of answers) {
          gw.hub.behave(async () => hubAnswer);
          const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
            headers: { "x-api-key": key },
          });
          assertRefusal(answer, "EPX0051", 503);
        }
      } finally {
        gw.hub.behave(undefined);
      }
    });
  });
}

describe("hub failures by transport", () => {
  test("a hub that throws in process is EPX0051 (hub failing)", async () => {
    const gw = await startGateway();
    try {
      const { key } = gw.access.addKey("org_t");
      gw.hub.behave(async () => {
        throw new Error("boom");
      });
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assertRefusal(answer, "EPX0051", 503);
    } finally {
      await gw.close();
    }
  });

  test("a hub that never looks at its deadline is still answered EPX0052, and the deadline it reads later is aborted", async () => {
    const gw = await startGateway({ config: { timeoutMs: 100 } });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reached: HubCall | undefined;
    try {
      const { key } = gw.access.addKey("org_t");
      gw.hub.behave(async (call) => {
        reached = call;
        await held;
        return gw.hub.echo(call);
      });
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assertRefusal(answer, "EPX0052", 504);
      assert.equal(reached?.deadline?.aborted, true);
      assert.equal(
        reached?.deadline?.signal.aborted,
        true,
        "a signal made after the deadline is born aborted",
      );
    } finally {
      release();
      gw.hub.behave(undefined);
      await gw.close();
    }
  });

  test("a hub that answers in time finds its deadline not aborted", async () => {
    const gw = await startGateway();
    let reached: HubCall | undefined;
    try {
      const { key } = gw.access.addKey("org_t");
      gw.hub.behave(async (call) => {
        reached = call;
        return gw.hub.echo(call);
      });
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assert.equal(answer.status, 200);
      assert.equal(reached?.deadline?.aborted, false);
      assert.equal(reached?.deadline?.signal.aborted, false);
    } finally {
      gw.hub.behave(undefined);
      await gw.close();
    }
  });

  test("a hub nobody listens for over HTTP is EPX0050 (hub unreachable)", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const gw = await startGateway({
      transport: () => createHttpHubTransport({ url: `http://127.0.0.1:${port}`, connections: 2 }),
    });
    try {
      const { key } = gw.access.addKey("org_t");
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assertRefusal(answer, "EPX0050", 502);
    } finally {
      await gw.close();
    }
  });

  test("a hub connection that breaks before the answer over HTTP is EPX0050", async () => {
    const breaker = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => breaker.listen(0, "127.0.0.1", resolve));
    const { port } = breaker.address() as AddressInfo;
    const gw = await startGateway({
      transport: () => createHttpHubTransport({ url: `http://127.0.0.1:${port}`, connections: 2 }),
    });
    try {
      const { key } = gw.access.addKey("org_t");
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assertRefusal(answer, "EPX0050", 502);
    } finally {
      await gw.close();
      await new Promise<void>((resolve) => breaker.close(() => resolve()));
    }
  });
});
