import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { hubHeaders } from "@hub/contract";
import { assertRefusal, call, envelopeOf, GATEWAY_SECRET, startTestHub } from "./hub-fixture.js";

describe("request id and the gateway's credential", () => {
  const hub = startTestHub();
  after(() => hub.close());

  test("the gateway's X-Request-Id names the answer in the header and the body", async () => {
    const answer = await call(hub, "GET", "/v1/catalog", {
      headers: { [hubHeaders.requestId]: "gw-req-42" },
    });
    assert.equal(answer.headers["x-request-id"], "gw-req-42");
    assert.equal(envelopeOf(answer).request_id, "gw-req-42");
  });

  test("a call without X-Request-Id gets a fresh id, equal in header and body", async () => {
    const first = await call(hub, "GET", "/v1/catalog");
    const second = await call(hub, "GET", "/v1/catalog");
    assert.equal(envelopeOf(first).request_id, first.headers["x-request-id"]);
    assert.notEqual(first.headers["x-request-id"], second.headers["x-request-id"]);
  });

  test("a refusal carries the gateway's request id too", async () => {
    const answer = await call(hub, "GET", "/v1/order/abc/status", {
      headers: { [hubHeaders.requestId]: "gw-9" },
    });
    const entry = assertRefusal(answer, "EIN0001", "x-service-subject");
    assert.ok(entry);
    assert.equal(envelopeOf(answer).request_id, "gw-9");
  });

  test("a request id that is not 1 to 128 visible ASCII characters is replaced by a fresh one", async () => {
    for (const bad of ["", "x".repeat(129), "has space", "ümlaut"]) {
      const answer = await call(hub, "GET", "/v1/catalog", { headers: { [hubHeaders.requestId]: bad } });
      assert.notEqual(answer.headers["x-request-id"], bad);
      assert.equal(envelopeOf(answer).request_id, answer.headers["x-request-id"]);
    }
  });

  test("a call without the gateway's credential is answered EPX0004 (404), as if no route existed", async () => {
    const headers = { [hubHeaders.gatewayCredential]: "" };
    const missing = await hub.handle({
      method: "GET",
      url: "/v1/catalog",
      headers: { "x-service-org": "o" },
    });
    assertRefusal(missing, "EPX0004");
    assert.equal(missing.statusCode, 404);
    for (const value of [
      "",
      "wrong",
      `${GATEWAY_SECRET}x`,
      GATEWAY_SECRET.slice(1),
      GATEWAY_SECRET.toUpperCase(),
    ]) {
      headers[hubHeaders.gatewayCredential] = value;
      assertRefusal(await call(hub, "GET", "/v1/catalog", { headers }), "EPX0004");
    }
  });

  test("without the credential even a charged route spends nothing and reveals nothing", async () => {
    const answer = await call(hub, "POST", "/v1/quote", {
      headers: { [hubHeaders.gatewayCredential]: "nope", [hubHeaders.subject]: "u" },
      body: "{not json",
    });
    assertRefusal(answer, "EPX0004");
    assert.doesNotMatch(answer.body.toString(), /quote|credential|secret/i);
  });

  test("an unknown route or method answers EPX0004 (404) in the envelope", async () => {
    for (const [method, url] of [
      ["GET", "/v1/nothing"],
      ["GET", "/catalog"],
      ["POST", "/v1/catalog"],
      ["GET", "/v1/quote"],
      ["DELETE", "/v1/orders"],
      ["HEAD", "/v1/catalog"],
      ["GET", "/v1/catalog/"],
      ["GET", "/v1/order/%E0%A4%A/status"],
    ] as const) {
      assertRefusal(await call(hub, method, url), "EPX0004");
    }
  });
});
