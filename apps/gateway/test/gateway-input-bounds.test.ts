import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { createTestHubApp } from "@hub/hub-app/test-harness";
import { createInProcessHubTransport } from "../src/index.js";
import { assertRefusal, callGateway, type GatewayAnswer } from "./fixtures/call-gateway.js";
import { HUB_SECRET, type StartedGateway, startGateway } from "./fixtures/start-gateway.js";

const SOLANA_ASSET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1/slip44:501";
const LONGEST_SOLANA_KEY = "JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG";
const quote = {
  sourceAsset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
  destinationAsset: "eip155:31337/slip44:60",
  amount: "1000000",
  recipient: "0x00000000000000000000000000000000000000bb",
};
const openFor = { quoteRequestId: "qr_r1_a", quoteId: "q_r1_a" };
const order = { quoteId: "q_r1_a", artifactHash: `0x${"cd".repeat(32)}` };

/** One over-long value per string field of every request body, in each route's struct order. */
const overLong: [path: string, body: Record<string, unknown>, reference: string][] = [
  ["/v1/quote", { ...quote, sourceAsset: `eip155:1/erc20:${"a".repeat(300)}` }, "sourceAsset"],
  ["/v1/quote", { ...quote, destinationAsset: `eip155:1/erc20:${"a".repeat(300)}` }, "destinationAsset"],
  ["/v1/quote", { ...quote, amount: "9".repeat(79) }, "amount"],
  ["/v1/quote", { ...quote, recipient: `0x${"b".repeat(127)}` }, "recipient"],
  ["/v1/quote", { ...quote, sourceAccount: `0x${"b".repeat(127)}` }, "sourceAccount"],
  ["/v1/quote/preview", { ...quote, recipient: "c".repeat(129) }, "recipient"],
  ["/v1/quote/prepare", { ...quote, preparationId: "p".repeat(129), provider: "a" }, "preparationId"],
  ["/v1/quote/prepare", { ...quote, preparationId: "p-1", provider: "a".repeat(65) }, "provider"],
  ["/v1/order/openfor", { ...openFor, quoteRequestId: "q".repeat(257) }, "quoteRequestId"],
  ["/v1/order/openfor", { ...openFor, quoteId: "q".repeat(257) }, "quoteId"],
  ["/v1/order/openfor", { ...openFor, signature: `0x${"ab".repeat(2048)}` }, "signature"],
  ["/v1/order", { ...order, quoteId: "q".repeat(257) }, "quoteId"],
  ["/v1/order", { ...order, artifactHash: `0x${"cd".repeat(33)}` }, "artifactHash"],
  ["/v1/order", { ...order, signature: `0x${"ab".repeat(2048)}` }, "signature"],
  ["/v1/order", { ...order, signer: "s".repeat(257) }, "signer"],
  ["/v1/order", { ...order, scheme: "e".repeat(33) }, "scheme"],
];

describe("input bounds through the gateway and the hub (issue: one request blocks every caller)", () => {
  const hub = createTestHubApp({
    config: {
      gatewayCredential: HUB_SECRET,
      // The gateway's limit: the field bounds must hold even when the hub reads every body it is sent.
      bodyLimitBytes: 65_536,
      organizationBucket: { ratePerSecond: 0.001, burst: 1 },
    },
  });
  let gw: StartedGateway;
  let key: string;
  let projectId: string;
  const page = "https://wallet.example";

  before(async () => {
    gw = await startGateway({ transport: () => createInProcessHubTransport(hub) });
    key = gw.access.addKey("org_bounds").key;
    projectId = gw.access.addProject("org_bounds", [page]);
  });
  after(async () => {
    await gw.close();
    await hub.close();
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = {}): Promise<GatewayAnswer> =>
    callGateway(gw.origin, "POST", path, {
      headers: {
        "x-api-key": key,
        "x-service-subject": "user-1",
        "content-type": "application/json",
        ...headers,
      },
      body: JSON.stringify(body),
    });

  function assertHubRefusal(answer: GatewayAnswer, code: string, reference?: string): void {
    assert.equal(answer.status, 400, answer.body.toString());
    assert.equal(answer.json.errors[0].error_code, code, answer.body.toString());
    assert.equal(answer.json.errors[0].error_reference, reference);
  }

  test("an over-long string in any body field answers EIN0001 naming the field, and charges nothing", async () => {
    for (const [path, body, reference] of overLong) {
      for (let i = 0; i < 3; i++) assertHubRefusal(await post(path, body), "EIN0001", reference);
    }
    // Both organization buckets (burst 1) are still full: the first valid call on each is served.
    assertHubRefusal(await post("/v1/quote", quote), "EIN0008");
    assertHubRefusal(await post("/v1/order/openfor", openFor), "EIN0001", "quoteId");
    assertHubRefusal(await post("/v1/order", order), "EIN0080");
  });

  test("a 60,000-character recipient is refused EIN0001 recipient on an EVM and on a Solana leg", async () => {
    const long = "2".repeat(60_000);
    for (const destinationAsset of [quote.destinationAsset, SOLANA_ASSET]) {
      assertHubRefusal(
        await post("/v1/quote/preview", { ...quote, destinationAsset, recipient: long }),
        "EIN0001",
        "recipient",
      );
    }
  });

  test("the longest admitted values pass every form check: 128-character accounts and subject, 2^256-1, a 44-character Solana key", async () => {
    const answers = [
      await post(
        "/v1/quote/preview",
        { ...quote, recipient: `0x${"b".repeat(126)}`, sourceAccount: `0x${"a".repeat(126)}` },
        { "x-service-subject": "s".repeat(128) },
      ),
      await post("/v1/quote/preview", { ...quote, amount: ((1n << 256n) - 1n).toString() }),
      await post("/v1/quote/preview", {
        ...quote,
        destinationAsset: SOLANA_ASSET,
        recipient: LONGEST_SOLANA_KEY,
      }),
    ];
    // Past decode: the route itself answers (no viable route in the test catalog) or the bucket sheds.
    for (const answer of answers) {
      assert.ok(["EIN0008", "EIN0080"].includes(answer.json.errors[0].error_code), answer.body.toString());
    }
  });

  test("over-long credential, subject and origin headers answer their codes", async () => {
    assertRefusal(
      await callGateway(gw.origin, "GET", "/v1/catalog", {
        headers: { "x-api-key": `svc_sk_${"a".repeat(8000)}` },
      }),
      "EPX0001",
      401,
    );
    assertRefusal(
      await callGateway(gw.origin, "GET", "/v1/catalog", {
        headers: { "x-project-id": `proj_${"a".repeat(8000)}` },
      }),
      "EPX0008",
      401,
    );
    assertHubRefusal(
      await post("/v1/quote", quote, { "x-service-subject": "s".repeat(129) }),
      "EIN0001",
      "x-service-subject",
    );
    assertRefusal(
      await callGateway(gw.origin, "GET", "/v1/catalog", {
        headers: { "x-project-id": projectId, origin: `https://${"a".repeat(8000)}.example` },
      }),
      "EPX0010",
      403,
    );
  });

  test("headers over Node's 16 KiB limit in all are refused EPX0006 before any handler", async () => {
    const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
      headers: { "x-api-key": key, "x-padding": "p".repeat(20_000) },
    });
    assertRefusal(answer, "EPX0006", 400);
  });
});
