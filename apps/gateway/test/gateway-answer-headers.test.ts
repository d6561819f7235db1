import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { callGateway } from "./fixtures/call-gateway.js";
import { type StartedGateway, startGateway } from "./fixtures/start-gateway.js";

describe("every gateway answer carries X-Content-Type-Options: nosniff", () => {
  let gw: StartedGateway;
  let key: string;
  before(async () => {
    gw = await startGateway();
    key = gw.access.addKey("org_nosniff").key;
  });
  after(() => gw.close());

  test("a hub answer passed back, a gateway refusal and an unknown path each carry nosniff", async () => {
    const passed = await callGateway(gw.origin, "GET", "/v1/catalog", { headers: { "x-api-key": key } });
    assert.equal(passed.status, 200);
    assert.equal(passed.headers["x-content-type-options"], "nosniff");
    assert.equal(passed.headers["cache-control"], "no-store");
    const refused = await callGateway(gw.origin, "GET", "/v1/catalog", {});
    assert.equal(refused.status, 401);
    assert.equal(refused.headers["x-content-type-options"], "nosniff");
    const unknown = await callGateway(gw.origin, "GET", "/nowhere", {});
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers["x-content-type-options"], "nosniff");
  });

  test("/livez and /readyz carry nosniff", async () => {
    for (const path of ["/livez", "/readyz"]) {
      const answer = await fetch(`${gw.origin}${path}`);
      assert.equal(answer.status, 200, path);
      assert.equal(answer.headers.get("x-content-type-options"), "nosniff", path);
    }
  });

  test("an envelope written straight to the socket (CONNECT) carries nosniff", async () => {
    const port = (gw.app.server.address() as AddressInfo).port;
    const head = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () =>
        socket.write("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n"),
      );
      let raw = "";
      socket.on("data", (chunk) => {
        raw += chunk.toString("latin1");
      });
      socket.on("error", reject);
      socket.on("close", () => resolve(raw.split("\r\n\r\n")[0] ?? ""));
    });
    assert.match(head, /^HTTP\/1\.1 404 /);
    assert.match(head, /\r\nX-Content-Type-Options: nosniff/);
  });
});
