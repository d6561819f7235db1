import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { nginxMissing, type StartedNginx, startNginx } from "@hub/test-support";
import { assertRefusal, callGateway } from "./fixtures/call-gateway.js";
import { type StartedGateway, startGateway } from "./fixtures/start-gateway.js";

const missing = nginxMissing();
if (missing) console.log(`skipping the gateway-behind-nginx test: ${missing}`);

describe("the gateway behind nginx with GATEWAY_TRUSTED_PROXIES", { skip: missing }, () => {
  let gw: StartedGateway;
  let nginx: StartedNginx;
  let origin: string;

  before(async () => {
    gw = await startGateway({ config: { trustedProxies: ["127.0.0.1/32"] } });
    nginx = await startNginx([new URL(gw.origin).host]);
    origin = nginx.origin;
  });

  after(async () => {
    await nginx?.close();
    await gw?.close();
  });

  test("one client through the proxy is locked out after 20 bad keys; another through the same proxy is not", async () => {
    const { key } = gw.access.addKey("org_proxy");
    const attacker = { "x-forwarded-for": "203.0.113.7" };
    const neighbour = { "x-forwarded-for": "198.51.100.20" };
    for (let i = 0; i < 20; i++) {
      const refused = await callGateway(origin, "GET", "/v1/catalog", {
        headers: { ...attacker, "x-api-key": `svc_sk_${String(i).padStart(43, "Z")}` },
      });
      assertRefusal(refused, "EPX0002", 401);
    }
    const locked = await callGateway(origin, "GET", "/v1/catalog", {
      headers: { ...attacker, "x-api-key": key },
    });
    assertRefusal(locked, "EPX0081", 429);
    const other = await callGateway(origin, "GET", "/v1/catalog", {
      headers: { ...neighbour, "x-api-key": key },
    });
    assert.equal(other.status, 200);
    // A client that sends no header is the proxy's own peer, 127.0.0.1: not locked either.
    const plain = await callGateway(origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
    assert.equal(plain.status, 200);
    // The gateway ignores what the attacker claims left of its own entry.
    const spoofed = await callGateway(origin, "GET", "/v1/catalog", {
      headers: { "x-forwarded-for": "198.51.100.20, 203.0.113.7", "x-api-key": key },
    });
    assertRefusal(spoofed, "EPX0081", 429);
  });
});
