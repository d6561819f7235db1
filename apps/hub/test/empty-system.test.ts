import assert from "node:assert/strict";
import { after, describe, test } from "node:test";
import { hubHeaders } from "@hub/contract";
import { assertRefusal, call, envelopeOf, quoteBody, SUBJECT, startTestHub } from "./hub-fixture.js";

const POST_HEADERS = { ...SUBJECT, "content-type": "application/json" };
const ORDER_ID = `0x${"12".repeat(32)}`;

describe("answers of a hub with no provider, quote, order, chain fact or watermark", () => {
  const hub = startTestHub();
  after(() => hub.close());

  test("the quote routes answer EIN0008 (no viable route) once the request validates", async () => {
    assertRefusal(
      await call(hub, "POST", "/v1/quote", { headers: POST_HEADERS, json: quoteBody() }),
      "EIN0008",
    );
    assertRefusal(
      await call(hub, "POST", "/v1/quote/preview", { headers: POST_HEADERS, json: quoteBody() }),
      "EIN0008",
    );
    const prepare = quoteBody({ preparationId: "attempt-1", provider: "solver-a", sourceAccount: "0x1" });
    assertRefusal(
      await call(hub, "POST", "/v1/quote/prepare", { headers: POST_HEADERS, json: prepare }),
      "EIN0008",
    );
  });

  test("POST /order for an unknown quote answers EIN0010 with reference quoteId", async () => {
    const body = { quoteId: "q_r1_unknown", artifactHash: `0x${"ab".repeat(32)}` };
    const post = (json: unknown) => call(hub, "POST", "/v1/order", { headers: POST_HEADERS, json });
    assertRefusal(await post(body), "EIN0010", "quoteId");
    const signed = { ...body, signature: "0x12", signer: "0x34", scheme: "eip191" };
    assertRefusal(await post(signed), "EIN0010", "quoteId");
  });

  test("POST /order/openfor for an unknown quote answers EIN0001 with reference quoteId", async () => {
    const body = {
      quoteRequestId: "qr_r1_unknown",
      quoteId: "q_r1_unknown",
      signature: `0x00${"ab".repeat(65)}`,
    };
    assertRefusal(
      await call(hub, "POST", "/v1/order/openfor", { headers: POST_HEADERS, json: body }),
      "EIN0001",
      "quoteId",
    );
  });

  test("the status routes and the raw order view answer EIN0009 for an unknown order", async () => {
    assertRefusal(
      await call(hub, "GET", `/v1/order/${"ab".repeat(32)}/status`, { headers: SUBJECT }),
      "EIN0009",
    );
    assertRefusal(await call(hub, "GET", `/v1/status/${"cd".repeat(32)}`), "EIN0009");
    assertRefusal(await call(hub, "GET", `/v1/onchain/${ORDER_ID}/order`), "EIN0009");
  });

  test("the fill-by-transaction route answers EIN0051 for a chain domain without a watermark", async () => {
    for (const domain of ["eip155:31337", "eip155:1", "EIP155:31337", "solana:abc"]) {
      const answer = await call(
        hub,
        "GET",
        `/v1/onchain/tx/${encodeURIComponent(domain)}/0x${"ef".repeat(32)}/order`,
      );
      const entry = assertRefusal(answer, "EIN0051");
      assert.equal(entry.error_params, undefined);
    }
  });

  test("GET /orders answers an empty page echoing the subject, with a null cursor", async () => {
    const subject = `canary-${Date.now()}`;
    const envelope = envelopeOf(
      await call(hub, "GET", "/v1/orders?limit=10", { headers: { [hubHeaders.subject]: subject } }),
    );
    assert.deepEqual(envelope.data, { subject, orders: [], nextCursor: null });
  });

  test("the fill view for an id without facts says not filled and not settled", async () => {
    for (const id of [ORDER_ID, ORDER_ID.toUpperCase(), ORDER_ID.slice(2)]) {
      const envelope = envelopeOf(await call(hub, "GET", `/v1/onchain/${id}/fill`));
      assert.deepEqual(envelope.data, {
        orderId: id,
        filled: false,
        settled: false,
        status: null,
        fills: [],
        watermarks: [],
      });
    }
  });

  test("the refund view without facts says not refundable: no Open was observed", async () => {
    for (const query of ["", "?chainDomain=eip155:31337", "?chainDomain=eip155:1&other=x"]) {
      const envelope = envelopeOf(await call(hub, "GET", `/v1/onchain/${ORDER_ID}/refund${query}`));
      assert.deepEqual(envelope.data, { orderId: ORDER_ID, refundable: false, reason: "unknown-order" });
    }
  });

  test("the refund route reads its query: a malformed chainDomain answers EIN0001 chainDomain", async () => {
    for (const query of ["?chainDomain=EIP155", "?chainDomain=a&chainDomain=b"]) {
      assertRefusal(
        await call(hub, "GET", `/v1/onchain/${ORDER_ID}/refund${query}`),
        "EIN0001",
        "chainDomain",
      );
    }
  });
});
