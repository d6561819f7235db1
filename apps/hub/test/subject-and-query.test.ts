import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { hubHeaders, routeTable } from "@hub/contract";
import { assertRefusal, call, envelopeOf, quoteBody, SUBJECT, startTestHub } from "./hub-fixture.js";

const JSON_CT = { "content-type": "application/json" };

function concretePath(path: string): string {
  return `/v1${path.replace("{orderId}", "0xabc").replace("{chainDomain}", "eip155:31337").replace("{txHash}", "0xdef")}`;
}

function validBody(operationId: string): unknown {
  switch (operationId) {
    case "prepareQuote":
      return quoteBody({ preparationId: "prep-1", provider: "solver-a" });
    case "submitOpenForOrder":
      return { quoteRequestId: "qr_r1_x", quoteId: "q_r1_x" };
    case "createOrder":
      return { quoteId: "q_r1_x", artifactHash: `0x${"ab".repeat(32)}` };
    default:
      return quoteBody();
  }
}

describe("X-Service-Subject (spec Subject header rules 1 and 2)", () => {
  const hub = startTestHub();
  after(() => hub.close());
  const subjectRoutes = routeTable.filter((route) => route.subjectRequired);

  test("the route table marks exactly seven routes as needing a subject", () => {
    assert.equal(subjectRoutes.length, 7);
  });

  test("a missing subject answers EIN0001 x-service-subject on each of the seven routes", async () => {
    for (const route of subjectRoutes) {
      const options = route.readsBody ? { headers: JSON_CT, json: validBody(route.operationId) } : {};
      assertRefusal(
        await call(hub, route.method, concretePath(route.path), options),
        "EIN0001",
        "x-service-subject",
      );
    }
  });

  test("a subject outside ^[A-Za-z0-9._@+~-]{1,128}$ answers EIN0001 x-service-subject", async () => {
    for (const subject of ["", "a b", "a/b", "x".repeat(129), "ü", "a,b", "a, b"]) {
      for (const route of subjectRoutes) {
        const headers = { [hubHeaders.subject]: subject, ...(route.readsBody ? JSON_CT : {}) };
        const options = route.readsBody ? { headers, json: validBody(route.operationId) } : { headers };
        assertRefusal(
          await call(hub, route.method, concretePath(route.path), options),
          "EIN0001",
          "x-service-subject",
        );
      }
    }
  });

  test("every allowed subject character and the full 128 characters are accepted", async () => {
    for (const subject of ["A-Za-z0-9._@+~-", "x".repeat(128), "canary-5f2c"]) {
      const answer = await call(hub, "GET", "/v1/orders", { headers: { [hubHeaders.subject]: subject } });
      const envelope = envelopeOf(answer);
      assert.equal(envelope.success, true);
      assert.equal((envelope.data as { subject: string }).subject, subject);
    }
  });

  test("routes without the subject rule serve a call that has none", async () => {
    for (const route of routeTable.filter((r) => !r.subjectRequired)) {
      const answer = await call(hub, route.method, concretePath(route.path));
      const envelope = route.path === "/openapi.yaml" ? undefined : envelopeOf(answer);
      assert.notEqual(envelope?.errors?.[0]?.error_reference, "x-service-subject", route.operationId);
    }
  });

  test("body decode and form fields are checked before the subject", async () => {
    assertRefusal(await call(hub, "POST", "/v1/quote", { headers: JSON_CT, body: "{" }), "EMC0028", "Body");
    assertRefusal(await call(hub, "POST", "/v1/quote", { headers: JSON_CT, body: "[]" }), "EIN0001", "body");
    assertRefusal(
      await call(hub, "POST", "/v1/quote", { headers: JSON_CT, json: {} }),
      "EIN0001",
      "sourceAsset",
    );
    assertRefusal(await call(hub, "POST", "/v1/quote", { headers: JSON_CT, body: "" }), "EMC0005");
    assertRefusal(await call(hub, "GET", "/v1/orders?limit=0"), "EIN0001", "limit");
  });
});

describe("query strings (spec common rule 3)", () => {
  const hub = startTestHub();
  after(() => hub.close());

  test("GET /orders reads its query: a bad limit answers EIN0001 limit, a good one is served", async () => {
    assertRefusal(await call(hub, "GET", "/v1/orders?limit=abc", { headers: SUBJECT }), "EIN0001", "limit");
    assertRefusal(await call(hub, "GET", "/v1/orders?limit=101", { headers: SUBJECT }), "EIN0001", "limit");
    assertRefusal(
      await call(hub, "GET", "/v1/orders?cursor=%20bad", { headers: SUBJECT }),
      "EIN0001",
      "cursor",
    );
    assert.equal(
      envelopeOf(await call(hub, "GET", "/v1/orders?limit=100&other=1", { headers: SUBJECT })).success,
      true,
    );
  });

  test("a query string on any other route is not acted on", async () => {
    const plain = await call(hub, "GET", "/v1/catalog");
    const withQuery = await call(hub, "GET", "/v1/catalog?limit=abc&cursor=%20&format=xml");
    assert.deepEqual(envelopeOf(withQuery).data, envelopeOf(plain).data);
    assertRefusal(
      await call(hub, "GET", "/v1/order/0xabc/status?limit=abc", { headers: SUBJECT }),
      "EIN0009",
    );
    assertRefusal(
      await call(hub, "POST", "/v1/quote?amount=0&limit=abc", {
        headers: { ...SUBJECT, ...JSON_CT },
        json: quoteBody(),
      }),
      "EIN0008",
    );
    const fill = envelopeOf(await call(hub, "GET", "/v1/onchain/0xabc/fill?orderId=0xdef"));
    assert.equal((fill.data as { orderId: string }).orderId, "0xabc");
  });
});
