import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { hubHeaders } from "@hub/contract";
import type { HubApp } from "@hub/hub-app";
import {
  assertRefusal,
  call,
  createTestHubApp,
  envelopeOf,
  quoteBody,
  SUBJECT,
  startTestHub,
} from "./hub-fixture.js";

const JSON_CT = { "content-type": "application/json" };
const QUOTE_HEADERS = { ...SUBJECT, ...JSON_CT };

const quote = (hub: HubApp, path = "/v1/quote", org = "org_test") =>
  call(hub, "POST", path, {
    headers: { ...QUOTE_HEADERS, [hubHeaders.organization]: org },
    json: path.endsWith("prepare") ? quoteBody({ preparationId: "p1", provider: "solver-a" }) : quoteBody(),
  });
const openFor = (hub: HubApp, org = "org_test") =>
  call(hub, "POST", "/v1/order/openfor", {
    headers: { ...QUOTE_HEADERS, [hubHeaders.organization]: org },
    json: { quoteRequestId: "qr_r1_a", quoteId: "q_r1_a" },
  });
const createOrder = (hub: ReturnType<typeof startTestHub>) =>
  call(hub, "POST", "/v1/order", {
    headers: QUOTE_HEADERS,
    json: { quoteId: "q_r1_a", artifactHash: `0x${"cd".repeat(32)}` },
  });

describe("per-organization buckets (spec Limits)", () => {
  test("the three quote routes share one bucket of burst 20; the 21st call answers EIN0080 with 200 ms", async () => {
    const hub = startTestHub();
    const paths = ["/v1/quote", "/v1/quote/preview", "/v1/quote/prepare"];
    for (let i = 0; i < 20; i++) assertRefusal(await quote(hub, paths[i % 3]), "EIN0008");
    for (const path of paths) {
      const entry = assertRefusal(await quote(hub, path), "EIN0080");
      assert.deepEqual(entry.error_params, ["200"]);
    }
    await hub.close();
  });

  test("the two order routes share another bucket, apart from the quote bucket", async () => {
    const hub = startTestHub();
    for (let i = 0; i < 20; i++) await quote(hub);
    assertRefusal(await quote(hub), "EIN0080");
    for (let i = 0; i < 10; i++) {
      assertRefusal(await openFor(hub), "EIN0001", "quoteId");
      assertRefusal(await createOrder(hub), "EIN0010", "quoteId");
    }
    assertRefusal(await openFor(hub), "EIN0080");
    assertRefusal(await createOrder(hub), "EIN0080");
    await hub.close();
  });

  test("failing validation costs nothing; a later refusal is charged", async () => {
    const hub = startTestHub();
    for (let i = 0; i < 50; i++) {
      assertRefusal(
        await call(hub, "POST", "/v1/quote", { headers: QUOTE_HEADERS, json: {} }),
        "EIN0001",
        "sourceAsset",
      );
      assertRefusal(
        await call(hub, "POST", "/v1/quote", { headers: JSON_CT, json: quoteBody() }),
        "EIN0001",
        "x-service-subject",
      );
      assertRefusal(
        await call(hub, "POST", "/v1/order", { headers: QUOTE_HEADERS, body: "{" }),
        "EMC0028",
        "Body",
      );
    }
    for (let i = 0; i < 20; i++) assertRefusal(await quote(hub), "EIN0008");
    assertRefusal(await quote(hub), "EIN0080");
    await hub.close();
  });

  test("a request whose asset route fails to resolve costs nothing; one that resolves and then fails is charged", async () => {
    const hub = startTestHub();
    const unknownChain = quoteBody({
      sourceAsset: "eip155:999/erc20:0x00000000000000000000000000000000000000aa",
    });
    for (const path of ["/v1/quote", "/v1/quote/preview", "/v1/quote/prepare"]) {
      for (let i = 0; i < 10; i++) {
        const json = path.endsWith("prepare")
          ? { ...unknownChain, preparationId: "p1", provider: "solver-a" }
          : unknownChain;
        const answer = await call(hub, "POST", path, { headers: QUOTE_HEADERS, json });
        assertRefusal(answer, "EIN0008");
        assert.match(envelopeOf(answer).message ?? "", /not a chain of the catalog/);
      }
    }
    for (let i = 0; i < 20; i++) {
      assert.match(envelopeOf(await quote(hub)).message ?? "", /no quote provider is configured/);
    }
    assertRefusal(await quote(hub), "EIN0080");
    await hub.close();
  });

  test("each organization has its own buckets", async () => {
    const hub = startTestHub();
    for (let i = 0; i < 20; i++) await quote(hub, "/v1/quote", "org_a");
    assertRefusal(await quote(hub, "/v1/quote", "org_a"), "EIN0080");
    assertRefusal(await quote(hub, "/v1/quote", "org_b"), "EIN0008");
    await hub.close();
  });

  test("a bucket refills at the configured rate on the injected clock", async () => {
    const hub = startTestHub();
    for (let i = 0; i < 20; i++) await quote(hub);
    assertRefusal(await quote(hub), "EIN0080");
    hub.clock.advance(199);
    assertRefusal(await quote(hub), "EIN0080");
    hub.clock.advance(1);
    assertRefusal(await quote(hub), "EIN0008");
    assertRefusal(await quote(hub), "EIN0080");
    hub.clock.advance(600_000);
    for (let i = 0; i < 20; i++) assertRefusal(await quote(hub), "EIN0008");
    assertRefusal(await quote(hub), "EIN0080");
    await hub.close();
  });

  test("EIN0080's back-off is floor(1000 / rps) ms, at least 1, the same on every route", async () => {
    for (const [ratePerSecond, expected] of [
      [3, "333"],
      [7, "142"],
      [1000, "1"],
      [5000, "1"],
      [0.5, "2000"],
    ] as const) {
      const hub = startTestHub({ organizationBucket: { ratePerSecond, burst: 1 } });
      await quote(hub);
      await openFor(hub);
      assert.deepEqual(assertRefusal(await quote(hub, "/v1/quote/preview"), "EIN0080").error_params, [
        expected,
      ]);
      assert.deepEqual(assertRefusal(await openFor(hub), "EIN0080").error_params, [expected]);
      await hub.close();
    }
  });

  test("reads are never charged to an organization bucket", async () => {
    const hub = startTestHub({ organizationBucket: { ratePerSecond: 1, burst: 1 } });
    for (let i = 0; i < 30; i++) {
      assert.equal(envelopeOf(await call(hub, "GET", "/v1/catalog")).success, true);
      assertRefusal(await call(hub, "GET", "/v1/order/0xab/status", { headers: SUBJECT }), "EIN0009");
    }
    assertRefusal(await quote(hub), "EIN0008");
    await hub.close();
  });

  test("shared counters that cannot answer (Redis down) shed a charged call with EIN0081, not an internal error", async () => {
    const hub = createTestHubApp({
      counters: { take: () => Promise.reject(new Error("Stream isn't writeable")) },
    });
    assertRefusal(await quote(hub), "EIN0081");
    assertRefusal(await openFor(hub), "EIN0081");
    await hub.close();
  });
});

describe("the per-IP limiter (spec Limits, Errors envelope)", () => {
  test("past its threshold a source gets EMC0005 with the DDoS check text, no request_id and no back-off hint", async () => {
    const hub = startTestHub({ perIpBucket: { ratePerSecond: 1, burst: 3 } });
    for (let i = 0; i < 3; i++) assert.equal(envelopeOf(await call(hub, "GET", "/v1/catalog")).success, true);
    const refused = await call(hub, "GET", "/v1/catalog", {
      headers: { [hubHeaders.requestId]: "gw-ddos-1" },
    });
    const envelope = envelopeOf(refused, { perIpRefusal: true });
    assert.equal(refused.headers["x-request-id"], "gw-ddos-1", "the header still names the call");
    assert.equal(envelope.errors?.[0]?.error_code, "EMC0005");
    assert.equal(envelope.errors?.[0]?.error_params, undefined);
    assert.match(envelope.message ?? "", /DDoS check/);
    assert.equal(refused.headers["retry-after"], undefined);
    await hub.close();
  });

  test("the limiter keys on the caller's address the gateway sets, each address with its own bucket", async () => {
    const hub = startTestHub({ perIpBucket: { ratePerSecond: 1, burst: 2 } });
    const from = (ip: string) => call(hub, "GET", "/v1/catalog", { headers: { "x-forwarded-for": ip } });
    await from("198.51.100.1");
    await from("198.51.100.1");
    envelopeOf(await from("198.51.100.1"), { perIpRefusal: true });
    assert.equal(envelopeOf(await from("198.51.100.2")).success, true);
    hub.clock.advance(1000);
    assert.equal(envelopeOf(await from("198.51.100.1")).success, true);
    await hub.close();
  });

  test("the per-IP limiter counts every route, reads included", async () => {
    const hub = startTestHub({ perIpBucket: { ratePerSecond: 1, burst: 2 } });
    await call(hub, "GET", "/v1/onchain/0x1/fill");
    await call(hub, "POST", "/v1/quote", { headers: QUOTE_HEADERS, json: {} });
    envelopeOf(await call(hub, "GET", "/v1/orders", { headers: SUBJECT }), { perIpRefusal: true });
    await hub.close();
  });
});

describe("quote admission (spec Limits: quotes in flight)", () => {
  test("past the in-flight cap a quote is shed with EIN0081 after the charge", async () => {
    const hub = startTestHub({ quotesInFlight: 0, organizationBucket: { ratePerSecond: 1, burst: 2 } });
    for (const path of ["/v1/quote", "/v1/quote/preview"]) {
      const entry = assertRefusal(await quote(hub, path), "EIN0081");
      assert.equal(entry.error_params, undefined);
    }
    assertRefusal(await quote(hub, "/v1/quote/prepare"), "EIN0080");
    assertRefusal(await openFor(hub), "EIN0001", "quoteId");
    await hub.close();
  });
});
