import assert from "node:assert/strict";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { after, before, describe, test } from "node:test";
import { type StartedGateway, startGateway } from "./fixtures/start-gateway.js";

/** Writes raw bytes and reads everything the gateway sends until it closes the connection. */
function exchange(port: number, bytes: string): Promise<{ head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer closed within 5 s: ${Buffer.concat(chunks).toString("latin1")}`));
    }, 5_000);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString("latin1");
      const end = raw.indexOf("\r\n\r\n");
      resolve({ head: end === -1 ? raw : raw.slice(0, end), body: end === -1 ? "" : raw.slice(end + 4) });
    });
  });
}

describe("the gateway listener answers what no route handler sees", () => {
  let gw: StartedGateway;
  let port: number;
  before(async () => {
    gw = await startGateway();
    port = (gw.app.server.address() as AddressInfo).port;
  });
  after(() => gw.close());

  test("CONNECT is answered EPX0004 (404) in the envelope, then the connection closes", async () => {
    const answer = await exchange(port, "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
    assert.match(answer.head, /^HTTP\/1\.1 404 /);
    assert.match(answer.head, /\r\nX-Request-Id: .+/i);
    const envelope = JSON.parse(answer.body);
    assert.equal(envelope.success, false);
    assert.equal(envelope.errors[0].error_code, "EPX0004");
  });

  test("a CONNECT sent with bytes after its head, then reset, neither crashes the gateway nor holds its close open", async () => {
    const own = await startGateway();
    const ownPort = (own.app.server.address() as AddressInfo).port;
    for (let i = 0; i < 10; i++) {
      await new Promise<void>((resolve) => {
        const socket = connect(ownPort, "127.0.0.1", () => {
          socket.write("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
          socket.write(Buffer.alloc(200_000, 0x78));
          setTimeout(() => {
            socket.resetAndDestroy();
            resolve();
          }, i % 3);
        });
        socket.on("error", () => {});
      });
    }
    const answer = await exchange(
      ownPort,
      "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
    );
    assert.match(answer.head, /^HTTP\/1\.1 404 /);
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      own.close().then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), 3_000);
      }),
    ]);
    clearTimeout(timer);
    assert.ok(closed, "the gateway closed within 3 s");
  });

  test("a HEAD the server cannot parse gets EPX0006's head and no body", async () => {
    const answer = await exchange(port, "HEAD /v1/catalog HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
    assert.match(answer.head, /^HTTP\/1\.1 400 /);
    assert.match(answer.head, /\r\nContent-Length: \d+/i);
    assert.equal(answer.body, "");
  });

  test("any other request the server cannot parse still gets the EPX0006 envelope", async () => {
    const answer = await exchange(port, "GET /v1/catalog HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n");
    assert.match(answer.head, /^HTTP\/1\.1 400 /);
    assert.equal(JSON.parse(answer.body).errors[0].error_code, "EPX0006");
  });
});
