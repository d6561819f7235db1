import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { HubTransport } from "@hub/contract";
import { openapiDocument } from "@hub/contract/openapi-document";
import { createHttpHubTransport, createInProcessHubTransport } from "../src/index.js";
import { assertRefusal, callGateway } from "./fixtures/call-gateway.js";
import { rawRequest } from "./fixtures/raw-http.js";
import { startRealHub } from "./fixtures/real-hub.js";
import { type StartedGateway, startGateway } from "./fixtures/start-gateway.js";

type Refusal = { errors: { error_code: string; error_reference?: string }[] };

const transports: { name: string; make(hub: Awaited<ReturnType<typeof startRealHub>>): HubTransport }[] = [
  { name: "in process", make: (real) => createInProcessHubTransport(real.hub) },
  { name: "over HTTP", make: (real) => createHttpHubTransport({ url: real.url, connections: 4 }) },
];

for (const kind of transports) {
  describe(`gateway in front of the real hub, ${kind.name}`, () => {
    let real: Awaited<ReturnType<typeof startRealHub>>;
    let gw: StartedGateway;
    let key: string;
    let projectId: string;
    const page = "https://wallet.example";

    before(async () => {
      real = await startRealHub();
      gw = await startGateway({ transport: () => kind.make(real) });
      key = gw.access.addKey("org_h").key;
      projectId = gw.access.addProject("org_h", [page]);
    });
    after(async () => {
      await gw.close();
      await real.close();
    });

    test("GET /v1/catalog with a key passes the hub's envelope back, with the gateway's request id", async () => {
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      assert.equal(answer.status, 200);
      assert.equal(answer.json.success, true);
      assert.equal(answer.json.data.families.evm[0].chainDomain, "eip155:31337");
      assert.equal(answer.json.request_id, answer.headers["x-request-id"]);
      assert.ok(answer.headers["ratelimit-remaining"]);
    });

    test("the hub's answer reaches the caller byte for byte", async () => {
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
      const direct = await real.hub.handle({
        method: "GET",
        url: "/v1/catalog",
        headers: {
          "x-request-id": answer.headers["x-request-id"] as string,
          "x-gateway-credential": "test-gateway-credential-0123456789abcdef",
          "x-service-org": "org_h",
        },
      });
      assert.deepEqual(answer.body, direct.body);
    });

    test("the document's server, resolved for this gateway, is dev.json's baseUrl, and its paths after it are routes; null reads as absent", async () => {
      const [server] = openapiDocument().servers as { url: string }[];
      const base = server?.url.replace("{origin}", gw.origin);
      assert.equal(base, gw.baseUrl);
      const headers = { "x-api-key": key, "x-service-subject": "user-1", "content-type": "application/json" };
      const catalog = await fetch(`${base}/catalog`, { headers: { "x-api-key": key } });
      assert.equal(catalog.status, 200);
      const unknown = await fetch(`${base}/order/${"0".repeat(64)}/status`, { headers });
      assert.equal(((await unknown.json()) as Refusal).errors[0]?.error_code, "EIN0009");
      // The document admits null on an optional request field, as the body decoder reads it: absent.
      const request = {
        sourceAsset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
        destinationAsset: "eip155:31337/slip44:60",
        amount: "1000000",
        recipient: "0x00000000000000000000000000000000000000bb",
      };
      const quote = async (body: object) => {
        const answer = await fetch(`${base}/quote`, { method: "POST", headers, body: JSON.stringify(body) });
        return ((await answer.json()) as Refusal).errors[0];
      };
      const withNulls = await quote({ ...request, sourceAccount: null, swapType: null });
      assert.notEqual(withNulls?.error_code, "EIN0001", JSON.stringify(withNulls));
      assert.deepEqual(withNulls, await quote(request));
    });

    test("GET /v1/catalog with a project id from an allowed origin is readable by the page", async () => {
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
        headers: { "x-project-id": projectId, origin: page },
      });
      assert.equal(answer.status, 200);
      assert.equal(answer.headers["access-control-allow-origin"], page);
    });

    test("a hub refusal passes through unchanged with the hub's 400: missing subject is EIN0001 x-service-subject", async () => {
      const answer = await callGateway(gw.origin, "POST", "/v1/quote", {
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: JSON.stringify({
          sourceAsset: "eip155:31337/erc20:0x00000000000000000000000000000000000000aa",
          destinationAsset: "eip155:31337/slip44:60",
          amount: "1000000",
          recipient: "0x00000000000000000000000000000000000000bb",
        }),
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.json.errors[0].error_code, "EIN0001");
      assert.equal(answer.json.errors[0].error_reference, "x-service-subject");
      assert.equal(answer.json.request_id, answer.headers["x-request-id"]);
    });

    test("malformed JSON reaches the hub and answers EMC0028", async () => {
      const answer = await callGateway(gw.origin, "POST", "/v1/quote", {
        headers: { "x-api-key": key, "content-type": "application/json", "x-service-subject": "user-1" },
        body: "{not json",
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.json.errors[0].error_code, "EMC0028");
    });

    test("a GET with a JSON body reaches the hub and answers EMC0005", async () => {
      const answer = await callGateway(gw.origin, "GET", "/v1/catalog", {
        headers: { "x-api-key": key, "content-type": "application/json" },
        body: "{}",
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.json.errors[0].error_code, "EMC0005");
    });

    test("an unknown order reads EIN0009 through the gateway", async () => {
      const answer = await callGateway(gw.origin, "GET", `/v1/order/${"ab".repeat(32)}/status`, {
        headers: { "x-api-key": key, "x-service-subject": "user-1" },
      });
      assert.equal(answer.status, 400);
      assert.equal(answer.json.errors[0].error_code, "EIN0009");
    });

    test("the gateway's own refusals still come first: no credential is EPX0001 before the hub", async () => {
      assertRefusal(await callGateway(gw.origin, "POST", "/v1/quote", { body: "{}" }), "EPX0001", 401);
    });

    test("every answer carries Cache-Control: no-store: hub success and errors, the gateway's own refusals", async () => {
      const withKey = { "x-api-key": key, "x-service-subject": "user-1" };
      const answers = [
        await callGateway(gw.origin, "GET", "/v1/catalog", { headers: withKey }),
        await callGateway(gw.origin, "GET", `/v1/order/${"ab".repeat(32)}/status`, { headers: withKey }),
        await callGateway(gw.origin, "POST", "/v1/quote", { body: "{}" }),
        await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": "svc_sk_nope" } }),
        await callGateway(gw.origin, "GET", "/v1/nope", { headers: withKey }),
        await callGateway(gw.origin, "GET", "/metrics"),
        await callGateway(gw.origin, "OPTIONS", "/v1/catalog", {
          headers: { origin: page, "access-control-request-method": "GET" },
        }),
      ];
      assert.deepEqual(
        answers.map((answer) => answer.status),
        [200, 400, 401, 401, 404, 404, 204],
      );
      for (const answer of answers) assert.equal(answer.headers["cache-control"], "no-store");
      const unparsable = await rawRequest(Number(new URL(gw.origin).port), [
        "GET /v1/catalog HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
      ]);
      assert.equal(unparsable.status, 400);
      assert.equal(unparsable.headers["cache-control"], "no-store");
    });
  });
}
