import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer as createHttpServer, type Server } from "node:http";
import { type AddressInfo, createServer as createNetServer, type Socket } from "node:net";
import { describe, test } from "node:test";
import { setImmediate as nextTurn } from "node:timers/promises";
import { cancellationOf, type HubCall } from "@hub/contract";
import { HubAnswerParser } from "../src/hub-answer-parser.js";
import { createHttpHubTransport, HubTransportError } from "../src/index.js";

function call(url = "/v1/catalog", extra: Partial<HubCall> = {}): HubCall {
  return { method: "GET", url, headers: { "x-request-id": "req_1" }, ...extra };
}

async function listen(server: Server | ReturnType<typeof createNetServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function stop(server: Server | ReturnType<typeof createNetServer>): Promise<void> {
  if ("closeAllConnections" in server) server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A node:http hub that counts the connections it was asked on. */
function countingHub(handler: Parameters<typeof createHttpServer>[1]) {
  const server = createHttpServer(handler);
  const sockets = new Set<Socket>();
  let opened = 0;
  server.on("connection", (socket: Socket) => {
    opened += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return {
    server,
    sockets,
    opened: () => opened,
  };
}

/** A hub that answers the raw bytes `answer` gives for each request it reads. */
function rawHub(answer: (socket: Socket, request: string) => void) {
  const requests: string[] = [];
  const server = createNetServer((socket) => {
    let buffered = "";
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      const end = buffered.indexOf("\r\n\r\n");
      if (end === -1) return;
      const request = buffered.slice(0, end + 4);
      buffered = buffered.slice(end + 4);
      requests.push(request);
      answer(socket, request);
    });
    socket.on("error", () => {});
  });
  return { server, requests };
}

describe("the HTTP hub transport against a real HTTP server", () => {
  test("a chunked answer arrives whole, with its headers", async () => {
    const hub = countingHub((_request, response) => {
      response.setHeader("content-type", "application/json");
      response.write('{"data":');
      response.write('"chunked"}');
      response.end();
    });
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 2 });
    try {
      const answer = await transport.send(call());
      assert.equal(answer.statusCode, 200);
      assert.equal(answer.headers["transfer-encoding"], "chunked");
      assert.equal(answer.headers["content-type"], "application/json");
      assert.equal(answer.body.toString(), '{"data":"chunked"}');
      const again = await transport.send(call());
      assert.equal(again.body.toString(), '{"data":"chunked"}');
      assert.equal(hub.opened(), 1);
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("a header value is checked whenever it differs from the last one sent: a bad one is never written", async () => {
    let requests = 0;
    const hub = countingHub((request, response) => {
      requests += 1;
      response.end(String(request.headers["x-service-org"]));
    });
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 1 });
    const withOrg = (org: string) =>
      call("/v1/catalog", { headers: { "x-request-id": "r", "x-service-org": org } });
    try {
      assert.equal((await transport.send(withOrg("org_a"))).body.toString(), "org_a");
      assert.equal((await transport.send(withOrg("org_a"))).body.toString(), "org_a");
      await assert.rejects(
        transport.send(withOrg("org_a\r\nx-injected: 1")),
        (error) => error instanceof HubTransportError && error.kind === "unreachable",
      );
      await assert.rejects(
        transport.send(call("/v1/catalog", { headers: { "x-bad name": "org_a" } })),
        (error) => error instanceof HubTransportError && error.kind === "unreachable",
      );
      assert.equal((await transport.send(withOrg("org_b"))).body.toString(), "org_b");
      assert.equal(requests, 3);
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("an answer with connection: close is read, and the next call opens a new connection", async () => {
    const hub = countingHub((_request, response) => {
      response.setHeader("connection", "close");
      response.end("closing");
    });
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 2 });
    try {
      assert.equal((await transport.send(call())).body.toString(), "closing");
      assert.equal((await transport.send(call())).body.toString(), "closing");
      assert.equal(hub.opened(), 2);
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("a connection the hub closed while idle is not used again", async () => {
    const hub = countingHub((_request, response) => response.end("ok"));
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 1 });
    try {
      assert.equal((await transport.send(call())).body.toString(), "ok");
      const [socket] = [...hub.sockets];
      hub.server.closeIdleConnections();
      await once(socket!, "close");
      // The hub's FIN is already in the gateway's receive queue; one full turn of the loop reads it.
      await nextTurn();
      await nextTurn();
      assert.equal((await transport.send(call())).body.toString(), "ok");
      assert.equal(hub.opened(), 2);
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("answers larger than one read arrive byte for byte", async () => {
    const sizes = [200 * 1024 + 3, 3 * 1024 * 1024 + 17];
    const bodies = sizes.map((size) => {
      const body = Buffer.alloc(size);
      for (let i = 0; i < size; i++) body[i] = (i * 31) & 0xff;
      return body;
    });
    const hub = countingHub((request, response) => response.end(bodies[Number(request.url?.slice(-1))]));
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 2 });
    try {
      for (const [i, body] of bodies.entries()) {
        const answer = await transport.send(call(`/v1/big/${i}`));
        assert.equal(answer.headers["content-length"], String(body.length));
        assert.deepEqual(answer.body, body);
      }
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("204 and 304 answers have no body and leave the connection usable", async () => {
    const hub = countingHub((request, response) => {
      response.statusCode = request.url === "/v1/none" ? 204 : request.url === "/v1/same" ? 304 : 200;
      response.setHeader("etag", '"e1"');
      response.end(response.statusCode === 200 ? "body" : undefined);
    });
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 1 });
    try {
      const none = await transport.send(call("/v1/none"));
      assert.equal(none.statusCode, 204);
      assert.equal(none.body.length, 0);
      const same = await transport.send(call("/v1/same"));
      assert.equal(same.statusCode, 304);
      assert.equal(same.body.length, 0);
      assert.equal(same.headers.etag, '"e1"');
      assert.equal((await transport.send(call("/v1/body"))).body.toString(), "body");
      assert.equal(hub.opened(), 1);
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("a POST body reaches the hub with its length, in one request", async () => {
    let seen: { length: string | undefined; body: string } | undefined;
    const hub = countingHub((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        seen = { length: request.headers["content-length"], body: Buffer.concat(chunks).toString() };
        response.end("ok");
      });
    });
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 1 });
    try {
      const body = Buffer.from('{"quote":"é"}');
      await transport.send(call("/v1/order", { method: "POST", body }));
      assert.deepEqual(seen, { length: String(body.length), body: '{"quote":"é"}' });
      await transport.send(call("/v1/order", { method: "POST" }));
      assert.deepEqual(seen, { length: "0", body: "" });
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("an informational answer is skipped for the answer after it", async () => {
    const hub = rawHub((socket) => {
      socket.write(
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\nx-a: 1\r\nx-a: 2\r\n\r\nok",
      );
    });
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 1 });
    try {
      const answer = await transport.send(call());
      assert.equal(answer.statusCode, 201);
      assert.equal(answer.headers["x-a"], "1, 2");
      assert.equal(answer.body.toString(), "ok");
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("a deadline that passes mid-answer ends the call as a timeout and cuts the connection", async () => {
    let cut: Promise<unknown> | undefined;
    const hub = rawHub((socket) => {
      // "close", whether or not an "error" comes first: a cut before the client has read "partial"
      // arrives here as a reset (ECONNRESET), which events.once would take as a failure.
      cut = new Promise((resolve) => socket.once("close", resolve));
      socket.write("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\npartial");
    });
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 1 });
    const controller = new AbortController();
    try {
      const sent = transport.send(call("/v1/catalog", { deadline: cancellationOf(controller.signal) }));
      while (hub.requests.length === 0) await nextTurn();
      controller.abort();
      await assert.rejects(sent, (error) => error instanceof HubTransportError && error.kind === "timeout");
      await cut;
      assert.equal(hub.requests.length, 1);
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("a connection that breaks after the request is unreachable and the request is not sent again", async () => {
    const hub = rawHub((socket) => socket.destroy());
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 1 });
    try {
      await assert.rejects(
        transport.send(call()),
        (error) => error instanceof HubTransportError && error.kind === "unreachable",
      );
      assert.equal(hub.requests.length, 1);
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("an answer that ends before its Content-Length is unreachable", async () => {
    const hub = rawHub((socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nshort"));
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 1 });
    try {
      await assert.rejects(
        transport.send(call()),
        (error) => error instanceof HubTransportError && error.kind === "unreachable",
      );
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("calls beyond the connection cap wait their turn and all complete", async () => {
    const held: (() => void)[] = [];
    let most = 0;
    const hub = countingHub((request, response) => {
      most = Math.max(most, hub.sockets.size);
      held.push(() => response.end(request.url));
    });
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 2 });
    try {
      const sent = Array.from({ length: 10 }, (_, i) => transport.send(call(`/v1/n${i}`)));
      let answered = 0;
      while (answered < 10) {
        while (held.length === 0) await nextTurn();
        held.shift()!();
        answered += 1;
      }
      const answers = await Promise.all(sent);
      assert.deepEqual(
        answers.map((answer) => answer.body.toString()),
        Array.from({ length: 10 }, (_, i) => `/v1/n${i}`),
      );
      assert.equal(most, 2);
      assert.equal(hub.opened(), 2);
    } finally {
      await transport.close();
      await stop(hub.server);
    }
  });

  test("close waits for the calls in flight", async () => {
    let answer: (() => void) | undefined;
    const hub = countingHub((_request, response) => {
      answer = () => response.end("late");
    });
    const transport = createHttpHubTransport({ url: await listen(hub.server), connections: 1 });
    try {
      const sent = transport.send(call());
      while (answer === undefined) await nextTurn();
      const closed = transport.close();
      const closedAgain = transport.close();
      answer();
      assert.equal((await sent).body.toString(), "late");
      await closed;
      await closedAgain;
      await assert.rejects(
        transport.send(call()),
        (error) => error instanceof HubTransportError && error.kind === "unreachable",
      );
    } finally {
      await stop(hub.server);
    }
  });
});

describe("the hub answer parser", () => {
  test("a chunked answer fed one byte at a time reads as when fed at once", () => {
    const bytes = Buffer.from(
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Request-Id: r\r\n\r\n" +
        "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nx-trailer: t\r\n\r\n",
    );
    const whole = new HubAnswerParser("GET").push(bytes);
    const parser = new HubAnswerParser("GET");
    let split: ReturnType<HubAnswerParser["push"]>;
    for (let i = 0; i < bytes.length; i++) {
      split = parser.push(bytes.subarray(i, i + 1));
      assert.equal(split === undefined, i < bytes.length - 1);
    }
    assert.deepEqual(split, whole);
    assert.equal(whole?.answer.body.toString(), "hello, world");
    assert.equal(whole?.answer.headers["x-request-id"], "r");
    assert.equal(whole?.keepAlive, true);
  });

  test("an answer without length runs to the close and ends the connection", () => {
    const parser = new HubAnswerParser("GET");
    assert.equal(parser.push(Buffer.from("HTTP/1.1 200 OK\r\n\r\nuntil")), undefined);
    assert.equal(parser.push(Buffer.from(" close")), undefined);
    const parsed = parser.end();
    assert.equal(parsed.answer.body.toString(), "until close");
    assert.equal(parsed.keepAlive, false);
  });

  test("the hub's keep-alive timeout and connection: close are read", () => {
    const kept = new HubAnswerParser("GET").push(
      Buffer.from("HTTP/1.1 200 OK\r\nKeep-Alive: timeout=72\r\nContent-Length: 0\r\n\r\n"),
    );
    assert.equal(kept?.keepAliveHintMs, 72_000);
    assert.equal(kept?.keepAlive, true);
    const closed = new HubAnswerParser("GET").push(
      Buffer.from("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"),
    );
    assert.equal(closed?.keepAlive, false);
  });

  test("header names arrive lower-cased in any case, values trimmed of spaces and tabs only, repeats joined", () => {
    const parsed = new HubAnswerParser("GET").push(
      Buffer.from(
        "HTTP/1.1 200 OK\r\nCONTENT-TYPE: application/json\r\nX-Request-ID:\t r_1 \t\r\nDate: d\r\n" +
          "X-Custom-Thing: \u000bkept\u00a0\r\nContent\rLength: 9\r\nVary: a\r\nvary: b\r\nKeep-Alive:timeout=5\r\n" +
          "Content-Length: 2\r\n\r\n{}",
        "latin1",
      ),
    );
    assert.deepEqual(parsed?.answer.headers, {
      "content-type": "application/json",
      "x-request-id": "r_1",
      date: "d",
      "x-custom-thing": "\u000bkept\u00a0",
      "content\rlength": "9",
      vary: "a, b",
      "keep-alive": "timeout=5",
      "content-length": "2",
    });
    assert.equal(parsed?.answer.body.toString(), "{}");
    assert.equal(parsed?.keepAliveHintMs, 5_000);
  });

  test("a header line without a name, without a colon or folded onto the one before is refused", () => {
    for (const line of [": x", "no colon", " folded: x", "\tfolded: x"]) {
      assert.throws(
        () =>
          new HubAnswerParser("GET").push(
            Buffer.from(`HTTP/1.1 200 OK\r\ncontent-length: 0\r\n${line}\r\nx-after: y\r\n\r\n`),
          ),
        /malformed header line/,
      );
    }
  });

  test("sized bodies keep their own bytes across many answers, whole or split, small or large", () => {
    const kept: { body: Buffer; expected: Buffer }[] = [];
    for (let i = 0; i < 200; i++) {
      const size = i % 50 === 0 ? 9_000 + i : 1 + ((i * 997) % 3_000);
      const expected = Buffer.alloc(size, i % 251);
      const bytes = Buffer.concat([
        Buffer.from(`HTTP/1.1 200 OK\r\ncontent-length: ${size}\r\n\r\n`),
        expected,
      ]);
      const parser = new HubAnswerParser("GET");
      const cut = i % 2 === 0 ? bytes.length : bytes.length - Math.ceil(size / 2);
      let parsed = parser.push(bytes.subarray(0, cut));
      if (cut < bytes.length) {
        assert.equal(parsed, undefined);
        parsed = parser.push(bytes.subarray(cut));
      }
      assert.ok(parsed);
      kept.push({ body: parsed.answer.body, expected });
    }
    for (const { body, expected } of kept) assert.ok(body.equals(expected));
  });

  test("bytes that are not an HTTP answer are refused", () => {
    assert.throws(() => new HubAnswerParser("GET").push(Buffer.from("SSH-2.0-OpenSSH\r\n\r\n")));
    assert.throws(() =>
      new HubAnswerParser("GET").push(Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: x\r\n\r\n")),
    );
    assert.throws(() => new HubAnswerParser("GET").end());
  });
});
