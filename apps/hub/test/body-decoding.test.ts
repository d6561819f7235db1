import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { assertRefusal, call, envelopeOf, quoteBody, SUBJECT, startTestHub } from "./hub-fixture.js";

const JSON_CT: Record<string, string> = { "content-type": "application/json" };

describe("body decoding (spec common rules 1, 2, 4, 6, 7, 8)", () => {
  const hub = startTestHub({ bodyLimitBytes: 1024 });
  after(() => hub.close());
  const post = (url: string, body: string | Buffer | undefined, headers: Record<string, string> = JSON_CT) =>
    call(hub, "POST", url, { headers: { ...SUBJECT, ...headers }, ...(body === undefined ? {} : { body }) });

  test("malformed JSON answers EMC0028 with reference Body", async () => {
    for (const body of ["{", "{bad}", "[1,]", "'x'", '{"a":1}}', "\ufeff{}", "   ", "nul"]) {
      assertRefusal(await post("/v1/quote", body), "EMC0028", "Body");
    }
  });

  test("well-formed JSON of a wrong type answers EIN0001 with reference body", async () => {
    const wrong = [
      "[]",
      "[{}]",
      '"a string"',
      "42",
      "true",
      JSON.stringify(quoteBody({ amount: 1000000 })),
      JSON.stringify(quoteBody({ amount: 1.5 })),
      JSON.stringify(quoteBody({ sourceAsset: { key: "x" } })),
      JSON.stringify(quoteBody({ recipient: ["0x1"] })),
    ];
    for (const body of wrong) assertRefusal(await post("/v1/quote", body), "EIN0001", "body");
    assertRefusal(
      await post("/v1/order/openfor", JSON.stringify({ quoteRequestId: 1, quoteId: "q" })),
      "EIN0001",
      "body",
    );
  });

  test("a POST without a JSON Content-Type answers EIN0001 body, whatever the body", async () => {
    const body = JSON.stringify(quoteBody());
    for (const headers of <Record<string, string>[]>[
      {},
      { "content-type": "text/plain" },
      { "content-type": "application/x-www-form-urlencoded" },
      { "content-type": "application/jsonx" },
      { "content-type": "garbage" },
    ]) {
      assertRefusal(await post("/v1/quote", body, headers), "EIN0001", "body");
    }
  });

  test("a JSON Content-Type is recognised in any case and with parameters", async () => {
    const body = JSON.stringify(quoteBody());
    for (const ct of [
      "application/json; charset=utf-8",
      "Application/JSON",
      "application/json;charset=UTF-8",
    ]) {
      assertRefusal(await post("/v1/quote", body, { "content-type": ct }), "EIN0008");
    }
  });

  test("a POST with an empty body and Content-Type exactly application/json answers EMC0005", async () => {
    assertRefusal(await post("/v1/quote", ""), "EMC0005");
    assertRefusal(await post("/v1/order", undefined), "EMC0005");
  });

  test("an empty POST body with a Content-Type parameter or none reaches the route: EIN0001 body", async () => {
    for (const headers of <Record<string, string>[]>[
      { "content-type": "application/json; charset=utf-8" },
      {},
      { "content-type": "Application/JSON" },
    ]) {
      assertRefusal(await post("/v1/quote", "", headers), "EIN0001", "body");
      assertRefusal(await post("/v1/order/openfor", undefined, headers), "EIN0001", "body");
    }
  });

  test("a body over the hub's size limit reads as empty: EMC0005 with exactly application/json", async () => {
    const big = JSON.stringify(quoteBody({ pad: "x".repeat(2000) }));
    assertRefusal(await post("/v1/quote", big), "EMC0005");
    assertRefusal(
      await post("/v1/quote", big, { "content-type": "application/json; charset=utf-8" }),
      "EIN0001",
      "body",
    );
    const atLimit = JSON.stringify(quoteBody({ pad: "" }));
    const padded = atLimit.replace('"pad":""', `"pad":"${"y".repeat(1024 - atLimit.length)}"`);
    assert.equal(Buffer.byteLength(padded), 1024);
    assertRefusal(await post("/v1/quote", padded), "EIN0008");
  });

  test("a GET with a body and a JSON Content-Type answers EMC0005", async () => {
    for (const ct of ["application/json", "application/json; charset=utf-8"]) {
      assertRefusal(
        await call(hub, "GET", "/v1/catalog", { headers: { "content-type": ct }, body: "{}" }),
        "EMC0005",
      );
      assertRefusal(
        await call(hub, "GET", "/v1/orders", {
          headers: { ...SUBJECT, "content-type": ct },
          body: "not even json",
        }),
        "EMC0005",
      );
    }
  });

  test("a GET with a body but no JSON Content-Type ignores the body and is served", async () => {
    for (const headers of <Record<string, string>[]>[{}, { "content-type": "text/plain" }]) {
      const answer = await call(hub, "GET", "/v1/catalog", { headers, body: '{"ignored":true}' });
      assert.equal(envelopeOf(answer).success, true);
    }
    const empty = await call(hub, "GET", "/v1/catalog", { headers: JSON_CT, body: "" });
    assert.equal(envelopeOf(empty).success, true, "an empty body is no body");
  });

  test("unknown JSON fields are ignored", async () => {
    const body = JSON.stringify(quoteBody({ extra: { deep: [1, 2] }, __proto__x: 1, colour: "blue" }));
    assertRefusal(await post("/v1/quote", body), "EIN0008");
  });

  test("form fields are validated in struct order and only the first failing one is reported", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{}, "sourceAsset"],
      [{ amount: "x", recipient: "" }, "sourceAsset"],
      [quoteBody({ destinationAsset: "nope", amount: "0" }), "destinationAsset"],
      [quoteBody({ amount: "0", recipient: "" }), "amount"],
      [quoteBody({ amount: "01" }), "amount"],
      [quoteBody({ recipient: "" }), "recipient"],
      [quoteBody({ swapType: "sideways" }), "swapType"],
    ];
    for (const [body, reference] of cases) {
      assertRefusal(await post("/v1/quote", JSON.stringify(body)), "EIN0001", reference);
    }
    assertRefusal(await post("/v1/quote/prepare", JSON.stringify(quoteBody())), "EIN0001", "preparationId");
    assertRefusal(
      await post("/v1/quote/prepare", JSON.stringify(quoteBody({ preparationId: "p-1" }))),
      "EIN0001",
      "provider",
    );
    assertRefusal(
      await post("/v1/order/openfor", JSON.stringify({ quoteId: "q" })),
      "EIN0001",
      "quoteRequestId",
    );
    assertRefusal(await post("/v1/order", JSON.stringify({ quoteId: "q" })), "EIN0001", "artifactHash");
  });

  test("null reads as an absent field, as a Go decoder reads it", async () => {
    assertRefusal(await post("/v1/quote", JSON.stringify(quoteBody({ sourceAccount: null }))), "EIN0008");
    assertRefusal(await post("/v1/quote", JSON.stringify(quoteBody({ amount: null }))), "EIN0001", "amount");
  });
});
