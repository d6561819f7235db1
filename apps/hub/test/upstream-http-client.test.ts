import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import {
  createUpstreamSender,
  type Sent,
  type UpstreamCallResult,
  type UpstreamSender,
} from "../src/upstream/upstream-http.js";

/** One request as a raw server read it. */
interface SeenRequest {
  readonly head: string;
  readonly body: string;
  readonly socket: Socket;
  readonly connection: number;
}

/**
 * A loopback server that reads HTTP/1.1 requests off each connection and lets the test answer each
 * with raw bytes, so every framing (good and bad) can be sent as written.
 */
class RawServer {
  readonly server: Server;
  readonly requests: SeenRequest[] = [];
  readonly sockets: Socket[] = [];
  readonly closedSockets = new Set<number>();
  answer: (request: SeenRequest) => void = (request) => request.socket.write(ok("{}"));

  constructor() {
    this.server = createServer((socket) => {
      const connection = this.sockets.push(socket) - 1;
      socket.on("close", () => this.closedSockets.add(connection));
      socket.on("error", () => {});
      let buffered = Buffer.alloc(0);
      socket.on("data", (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        for (;;) {
          const end = buffered.indexOf("\r\n\r\n");
          if (end === -1) return;
          const head = buffered.toString("latin1", 0, end);
          const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
          if (buffered.length < end + 4 + length) return;
          const body = buffered.toString("utf8", end + 4, end + 4 + length);
          buffered = buffered.subarray(end + 4 + length);
          const request = { head, body, socket, connection };
          this.requests.push(request);
          this.answer(request);
        }
      });
    });
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function ok(body: string, extra = ""): string {
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(condition(), what);
}

function answerOf(sent: Sent): { statusCode: number; headers: Record<string, unknown>; text: string } {
  assert.equal(sent.ok, true, JSON.stringify(sent));
  return (sent as Extract<Sent, { ok: true }>).answer;
}

function failureOf(sent: Sent): Extract<Sent, { ok: false }> {
  assert.equal(sent.ok, false, JSON.stringify(sent));
  return sent as Extract<Sent, { ok: false }>;
}

describe("the hub's upstream HTTP client over plain sockets", () => {
  const raw = new RawServer();
  let url: string;
  const results: UpstreamCallResult[] = [];
  const senders: UpstreamSender[] = [];

  function sender(
    overrides: { timeoutMs?: number; connections?: number; path?: string } = {},
  ): UpstreamSender {
    const made = createUpstreamSender(
      {
        baseUrl: `${url}${overrides.path ?? "/api"}`,
        headers: { "x-api-key": "k1" },
        timeoutMs: overrides.timeoutMs ?? 5000,
        connections: overrides.connections ?? 4,
      },
      (result) => results.push(result),
    );
    senders.push(made);
    return made;
  }

  before(async () => {
    url = await raw.listen();
  });

  after(async () => {
    for (const made of senders) await made.close();
    await raw.close();
  });

  test("a POST is one request with the configured headers, JSON body and its length, written at once", async () => {
    raw.answer = (request) => request.socket.write(ok('{"a":1}'));
    const client = sender();
    const before = raw.requests.length;
    const sent = await client.send("POST", "/quotes", { amount: "1", note: "é" }, undefined);
    assert.deepEqual(answerOf(sent).text, '{"a":1}');
    const request = raw.requests[before]!;
    const port = new URL(url).port;
    assert.equal(
      request.head,
      [
        "POST /api/quotes HTTP/1.1",
        `host: 127.0.0.1:${port}`,
        "connection: keep-alive",
        "accept: application/json",
        "user-agent: intent-hub/0.1",
        "x-api-key: k1",
        "content-type: application/json",
        `content-length: ${Buffer.byteLength('{"amount":"1","note":"é"}')}`,
      ].join("\r\n"),
    );
    assert.equal(request.body, '{"amount":"1","note":"é"}');
    const get = await client.send("GET", "/orders/x", undefined, undefined);
    assert.equal(answerOf(get).statusCode, 200);
    assert.equal(
      raw.requests.at(-1)!.head,
      [
        "GET /api/orders/x HTTP/1.1",
        `host: 127.0.0.1:${port}`,
        "connection: keep-alive",
        "accept: application/json",
        "user-agent: intent-hub/0.1",
        "x-api-key: k1",
      ].join("\r\n"),
    );
  });

  test("answers come back with lower-cased headers, a repeated header's values in an array", async () => {
    raw.answer = (request) =>
      request.socket.write(
        "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 7\r\nX-Rep: a\r\nx-rep: b\r\nContent-Length: 2\r\n\r\n{}",
      );
    const answer = answerOf(await sender().send("GET", "/x", undefined, undefined));
    assert.equal(answer.statusCode, 429);
    assert.equal(answer.headers["retry-after"], "7");
    assert.deepEqual(answer.headers["x-rep"], ["a", "b"]);
    assert.equal(answer.text, "{}");
    assert.equal(results.at(-1), "429");
  });

  test("a keep-alive socket carries the next call; calls beyond `connections` wait their turn on them", async () => {
    raw.answer = (request) => request.socket.write(ok(`{"n":${raw.requests.length}}`));
    const client = sender({ connections: 2 });
    const first = raw.sockets.length;
    await client.send("GET", "/a", undefined, undefined);
    await client.send("GET", "/b", undefined, undefined);
    assert.equal(raw.sockets.length, first + 1, "the second call reused the first socket");
    const held: SeenRequest[] = [];
    raw.answer = (request) => held.push(request);
    const calls = [1, 2, 3, 4, 5].map((n) => client.send("GET", `/c${n}`, undefined, undefined));
    await until(() => held.length === 2, "two calls out, one per socket");
    assert.equal(raw.sockets.length, first + 2, "no more sockets than `connections`");
    raw.answer = (request) => request.socket.write(ok("{}"));
    for (const request of held) request.socket.write(ok("{}"));
    for (const sent of await Promise.all(calls)) assert.equal(answerOf(sent).text, "{}");
    assert.equal(raw.sockets.length, first + 2);
  });

  test("a chunked answer is read whole: extensions and trailers allowed, the socket kept", async () => {
    const client = sender();
    raw.answer = (request) => {
      request.socket.write('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n4;ext=1\r\n{"a"');
      request.socket.write("\r\n3\r\n:1}\r\n0\r\nx-trailer: t\r\n\r\n");
    };
    const before = raw.sockets.length;
    assert.equal(answerOf(await client.send("GET", "/c", undefined, undefined)).text, '{"a":1}');
    raw.answer = (request) => request.socket.write(ok("{}"));
    await client.send("GET", "/d", undefined, undefined);
    assert.equal(raw.sockets.length, before + 1);
  });

  test("an answer without a length is read to the close, and its socket is not used again", async () => {
    const client = sender();
    raw.answer = (request) =>
      request.socket.end("HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nall of it");
    const before = raw.sockets.length;
    assert.equal(answerOf(await client.send("GET", "/e", undefined, undefined)).text, "all of it");
    raw.answer = (request) => request.socket.write(ok("{}"));
    await client.send("GET", "/f", undefined, undefined);
    assert.equal(raw.sockets.length, before + 2);
  });

  test("a `connection: close` answer ends its socket's use", async () => {
    const client = sender();
    raw.answer = (request) => request.socket.write(ok("{}", "connection: close\r\n"));
    const before = raw.sockets.length;
    await client.send("GET", "/g", undefined, undefined);
    raw.answer = (request) => request.socket.write(ok("{}"));
    await client.send("GET", "/h", undefined, undefined);
    assert.equal(raw.sockets.length, before + 2);
    await until(() => raw.closedSockets.has(before), "the closed answer's socket is closed");
  });

  test("an HTTP/1.0 answer keeps its socket only with `connection: keep-alive`", async () => {
    const client = sender();
    raw.answer = (request) => request.socket.write("HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\n{}");
    const before = raw.sockets.length;
    await client.send("GET", "/i", undefined, undefined);
    raw.answer = (request) =>
      request.socket.write("HTTP/1.0 200 OK\r\nconnection: keep-alive\r\ncontent-length: 2\r\n\r\n{}");
    await client.send("GET", "/j", undefined, undefined);
    await client.send("GET", "/k", undefined, undefined);
    assert.equal(raw.sockets.length, before + 2);
  });

  test("informational answers before the answer are skipped; 204 and 304 have no body", async () => {
    const client = sender();
    raw.answer = (request) =>
      request.socket.write(
        "HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n" + ok('{"late":true}'),
      );
    assert.equal(answerOf(await client.send("GET", "/l", undefined, undefined)).text, '{"late":true}');
    for (const status of ["204 No Content", "304 Not Modified"]) {
      raw.answer = (request) => request.socket.write(`HTTP/1.1 ${status}\r\ncontent-type: x\r\n\r\n`);
      const before = raw.sockets.length;
      const answer = answerOf(await client.send("GET", "/m", undefined, undefined));
      assert.equal(answer.statusCode, Number(status.slice(0, 3)));
      assert.equal(answer.text, "");
      raw.answer = (request) => request.socket.write(ok('{"next":1}'));
      assert.equal(answerOf(await client.send("GET", "/n", undefined, undefined)).text, '{"next":1}');
      assert.equal(raw.sockets.length, before, "the socket carried the next answer");
    }
  });

  test("a 100 Continue or an unasked 101 is a transport failure, as undici's parser takes them", async () => {
    for (const [status, cause] of [
      ["100 Continue", "UND_ERR_SOCKET: bad response"],
      ["101 Switching Protocols", "UND_ERR_SOCKET: bad upgrade"],
    ]) {
      raw.answer = (request) => request.socket.write(`HTTP/1.1 ${status}\r\n\r\n${ok("{}")}`);
      assert.deepEqual(failureOf(await sender().send("GET", "/o", undefined, undefined)), {
        ok: false,
        notSent: false,
        reason: "transport",
        cause,
      });
    }
  });

  test("malformed framing is a transport failure after the request was sent, with undici's cause", async () => {
    const protocol = (reason: string) => `Response does not match the HTTP/1.1 protocol (${reason})`;
    const mismatch =
      "UND_ERR_RES_CONTENT_LENGTH_MISMATCH: Response body length does not match content-length header";
    const answers: [string, string][] = [
      ["not http at all\r\n\r\n", protocol("Expected HTTP/, RTSP/ or ICE/")],
      ["HTTP/1.1 2000 OK\r\n\r\n", protocol("Invalid response status")],
      ["HTTP/1.1 200 OK\ncontent-length: 2\n\n{}", protocol("Missing expected CR after response line")],
      ["HTTP/1.1 200 OK\r\ncontent-length: 2x\r\n\r\n{}", mismatch],
      ["HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 2\r\n\r\n{}", mismatch],
      [
        "HTTP/1.1 200 OK\r\ncontent-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        mismatch,
      ],
      ["HTTP/1.1 304 Not Modified\r\ncontent-length: 5\r\n\r\n", mismatch],
      [
        "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
        protocol("Invalid character in chunk size"),
      ],
      [
        "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2 \r\n{}\r\n0\r\n\r\n",
        protocol("Invalid character in chunk size"),
      ],
      [
        "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}XX0\r\n\r\n",
        protocol("Expected LF after chunk data"),
      ],
      ["HTTP/1.1 200 OK\r\nbad name: x\r\ncontent-length: 0\r\n\r\n", protocol("Invalid header token")],
      [
        "HTTP/1.1 200 OK\r\nx: a\r\n folded\r\ncontent-length: 0\r\n\r\n",
        protocol("Unexpected whitespace after header value"),
      ],
      ["HTTP/1.1 200 OK\r\nx: a\u0001b\r\ncontent-length: 0\r\n\r\n", protocol("Invalid header value char")],
    ];
    for (const [bytes, cause] of answers) {
      raw.answer = (request) => request.socket.write(bytes, "latin1");
      assert.deepEqual(
        failureOf(await sender().send("GET", "/p", undefined, undefined)),
        { ok: false, notSent: false, reason: "transport", cause },
        bytes,
      );
      assert.equal(results.at(-1), "transport");
    }
  });

  test("header values keep their trailing whitespace and inherited names are plain headers, as undici reads them", async () => {
    raw.answer = (request) =>
      request.socket.write(
        ok("{}", "Retry-After:  3 \r\nconstructor: c\r\n__proto__: p\r\n__proto__: q\r\n"),
      );
    const answer = answerOf(await sender().send("GET", "/p", undefined, undefined));
    assert.equal(answer.headers["retry-after"], "3 ");
    assert.equal(answer.headers.constructor, "c");
    assert.deepEqual(Object.getOwnPropertyDescriptor(answer.headers, "__proto__")?.value, ["p", "q"]);
    assert.equal(Object.getPrototypeOf(answer.headers), Object.prototype);
  });

  test("a head over undici's 16 KiB header limit is a transport failure", async () => {
    raw.answer = (request) => request.socket.write(ok("{}", `x-big: ${"a".repeat(16 * 1024)}\r\n`));
    assert.equal(
      failureOf(await sender().send("GET", "/q", undefined, undefined)).cause,
      "UND_ERR_HEADERS_OVERFLOW: Headers Overflow Error",
    );
    raw.answer = (request) => request.socket.write(ok("{}", `x-big: ${"a".repeat(15 * 1024)}\r\n`));
    assert.equal(answerOf(await sender().send("GET", "/q", undefined, undefined)).text, "{}");
  });

  test("a body over 4 MiB is malformed, with a length or chunked", async () => {
    const big = "x".repeat(4 * 1024 * 1024 + 1);
    raw.answer = (request) => request.socket.write(ok(big));
    const sized = failureOf(await sender().send("GET", "/r", undefined, undefined));
    assert.deepEqual(sized, {
      ok: false,
      notSent: false,
      reason: "malformed",
      cause: "upstream answer over 4194304 bytes",
    });
    assert.equal(results.at(-1), "malformed");
    raw.answer = (request) =>
      request.socket.write(
        `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${(4 * 1024 * 1024).toString(16)}\r\n${big.slice(1)}\r\n1\r\nx\r\n0\r\n\r\n`,
      );
    assert.equal(failureOf(await sender().send("GET", "/r", undefined, undefined)).reason, "malformed");
    raw.answer = (request) => request.socket.write(ok(big.slice(1)));
    assert.equal(
      answerOf(await sender().send("GET", "/r", undefined, undefined)).text.length,
      4 * 1024 * 1024,
    );
  });

  test("a close before the answer ends is a transport failure: in the head, in a sized body, in a chunked body", async () => {
    const cuts: [string, string][] = [
      ["", "UND_ERR_SOCKET: other side closed"],
      ["HTTP/1.1 200 OK\r\ncontent-le", "UND_ERR_SOCKET: other side closed"],
      ["HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n{}", "UND_ERR_SOCKET: other side closed"],
      [
        "HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 10\r\n\r\n{}",
        "UND_ERR_RES_CONTENT_LENGTH_MISMATCH: Response body length does not match content-length header",
      ],
      ["HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}", "UND_ERR_SOCKET: other side closed"],
    ];
    for (const [bytes, cause] of cuts) {
      raw.answer = (request) => request.socket.end(bytes);
      assert.deepEqual(failureOf(await sender().send("GET", "/s", undefined, undefined)), {
        ok: false,
        notSent: false,
        reason: "transport",
        cause,
      });
    }
  });

  test("bytes after an answer are not taken for the next one: that socket is dropped", async () => {
    const client = sender();
    raw.answer = (request) =>
      request.socket.write(`${ok('{"one":1}')}HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}`);
    const before = raw.sockets.length;
    assert.equal(answerOf(await client.send("GET", "/t", undefined, undefined)).text, '{"one":1}');
    raw.answer = (request) => request.socket.write(ok('{"two":2}'));
    assert.equal(answerOf(await client.send("GET", "/u", undefined, undefined)).text, '{"two":2}');
    assert.equal(raw.sockets.length, before + 2);
  });

  test("an idle socket that received bytes, or the upstream's close, is never used again", async () => {
    const client = sender();
    const before = raw.sockets.length;
    raw.answer = (request) =>
      request.socket.write(ok("{}"), () =>
        request.socket.write("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nfalse"),
      );
    await client.send("GET", "/v", undefined, undefined);
    await until(() => raw.closedSockets.has(before), "the client dropped the socket that got unasked bytes");
    raw.answer = (request) => request.socket.write(ok('{"fresh":1}'));
    assert.equal(answerOf(await client.send("GET", "/w", undefined, undefined)).text, '{"fresh":1}');
    assert.equal(raw.requests.at(-1)!.connection, before + 1);

    raw.answer = (request) => request.socket.end(ok("{}"));
    await client.send("GET", "/x", undefined, undefined);
    const ended = raw.requests.at(-1)!.connection;
    await until(() => raw.closedSockets.has(ended), "the upstream's close reached the client");
    raw.answer = (request) => request.socket.write(ok('{"fresh":2}'));
    assert.equal(answerOf(await client.send("GET", "/y", undefined, undefined)).text, '{"fresh":2}');
    assert.notEqual(raw.requests.at(-1)!.connection, ended);
  });

  test("`keep-alive: timeout=` is honoured as undici does: a socket with 2 s or less left is not kept", async () => {
    const client = sender();
    raw.answer = (request) => request.socket.write(ok("{}", "keep-alive: timeout=2\r\n"));
    const before = raw.sockets.length;
    await client.send("GET", "/z", undefined, undefined);
    await client.send("GET", "/z", undefined, undefined);
    assert.equal(raw.sockets.length, before + 2);
    raw.answer = (request) => request.socket.write(ok("{}", "keep-alive: timeout=5\r\n"));
    await client.send("GET", "/z", undefined, undefined);
    await client.send("GET", "/z", undefined, undefined);
    assert.equal(raw.sockets.length, before + 3);
  });

  test("the upstream's timeout ends a held call as a timeout and cuts its socket; a queued call is ended too", async () => {
    const client = sender({ timeoutMs: 100, connections: 1 });
    raw.answer = () => {};
    const before = raw.sockets.length;
    const [held, queued] = await Promise.all([
      client.send("POST", "/held", { a: 1 }, undefined),
      client.send("GET", "/queued", undefined, undefined),
    ]);
    for (const sent of [held, queued]) {
      assert.deepEqual(sent, {
        ok: false,
        notSent: false,
        reason: "timeout",
        cause: "no answer within 100 ms",
      });
    }
    assert.equal(results.at(-1), "timeout");
    await until(() => raw.closedSockets.has(before), "the timed-out call's socket was cut");
  });

  test("the caller's signal ends a held call as aborted with its reason; one aborted before is not sent", async () => {
    const client = sender();
    raw.answer = () => {};
    const controller = new AbortController();
    const before = raw.requests.length;
    const pending = client.send("GET", "/abort", undefined, controller.signal);
    await until(() => raw.requests.length > before, "the call reached the upstream");
    controller.abort(new Error("caller gone"));
    assert.deepEqual(await pending, { ok: false, notSent: false, reason: "aborted", cause: "caller gone" });
    assert.deepEqual(await client.send("GET", "/abort", undefined, controller.signal), {
      ok: false,
      notSent: true,
      reason: "aborted",
      cause: "caller gone",
    });
  });

  test("a refused connection is not sent", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createUpstreamSender({
      baseUrl: `http://127.0.0.1:${port}`,
      headers: {},
      timeoutMs: 5000,
      connections: 1,
    });
    const failure = failureOf(await client.send("GET", "/", undefined, undefined));
    await client.close();
    assert.equal(failure.notSent, true);
    assert.equal(failure.reason, "transport");
    assert.match(failure.cause, /^ECONNREFUSED: /);
  });

  test("a node:http server's keep-alive answers, JSON and errors read as before", async () => {
    const server = createHttpServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.statusCode = req.url === "/api/fail" ? 503 : 200;
        res.setHeader("content-type", "application/json");
        if (req.url === "/api/chunked") res.write('{"chunked"');
        res.end(req.url === "/api/chunked" ? ":true}" : '{"plain":true}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    let connections = 0;
    server.on("connection", () => (connections += 1));
    const client = createUpstreamSender(
      {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
        headers: {},
        timeoutMs: 5000,
        connections: 2,
      },
      (result) => results.push(result),
    );
    assert.equal(
      answerOf(await client.send("GET", "/chunked", undefined, undefined)).text,
      '{"chunked":true}',
    );
    assert.equal(answerOf(await client.send("POST", "/plain", { x: 1 }, undefined)).text, '{"plain":true}');
    assert.equal(answerOf(await client.send("GET", "/fail", undefined, undefined)).statusCode, 503);
    assert.equal(results.at(-1), "5xx");
    assert.equal(connections, 1);
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});

/** A self-signed certificate for `localhost` (and no IP address), made with openssl. */
function selfSigned(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, "key.pem");
  const certFile = join(dir, "cert.pem");
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost",
      "-days",
      "1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "ignore" },
  );
  return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8"), certFile };
}

describe("the hub's upstream HTTP client over TLS", () => {
  let dir: string;
  let port: number;
  const servernames: (string | false)[] = [];
  let server: ReturnType<typeof createHttpsServer>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "upstream-tls-"));
    const { key, cert } = selfSigned(dir);
    server = createHttpsServer({ key, cert }, (req, res) => {
      req.resume();
      req.on("end", () => {
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ path: req.url }));
      });
    });
    server.on("secureConnection", (socket) => {
      servernames.push((socket as unknown as { servername: string | false }).servername);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  test("an untrusted self-signed certificate is refused before anything is sent", async () => {
    const client = createUpstreamSender({
      baseUrl: `https://localhost:${port}`,
      headers: {},
      timeoutMs: 5000,
      connections: 1,
    });
    const failure = failureOf(await client.send("POST", "/quotes", { a: 1 }, undefined));
    await client.close();
    assert.equal(failure.notSent, true, failure.cause);
    assert.equal(failure.reason, "transport");
    assert.match(failure.cause, /^DEPTH_ZERO_SELF_SIGNED_CERT: /);
  });

  test("a trusted certificate is checked against the host, sent as SNI, and the socket kept alive", async () => {
    // The default trust store is read once per process: a child with NODE_EXTRA_CA_CERTS trusts the test's CA.
    const script = join(dir, "calls.mts");
    writeFileSync(
      script,
      `import { createUpstreamSender } from ${JSON.stringify(new URL("../src/upstream/upstream-http.ts", import.meta.url).pathname)};
const named = createUpstreamSender({ baseUrl: "https://localhost:${port}/api", headers: {}, timeoutMs: 5000, connections: 1 });
const first = await named.send("GET", "/one", undefined, undefined);
const second = await named.send("POST", "/two", { a: 1 }, undefined);
await named.close();
const byIp = createUpstreamSender({ baseUrl: "https://127.0.0.1:${port}", headers: {}, timeoutMs: 5000, connections: 1 });
const third = await byIp.send("GET", "/three", undefined, undefined);
await byIp.close();
process.stdout.write(JSON.stringify([first, second, third]));
`,
    );
    // The server runs in this process, so the child is awaited, not waited for.
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", script], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: join(dir, "cert.pem") },
      encoding: "utf8",
    });
    const [first, second, third] = JSON.parse(stdout) as Sent[];
    assert.equal(answerOf(first!).text, '{"path":"/api/one"}');
    assert.equal(answerOf(second!).text, '{"path":"/api/two"}');
    const mismatch = failureOf(third!);
    assert.equal(mismatch.notSent, true, mismatch.cause);
    assert.match(mismatch.cause, /^ERR_TLS_CERT_ALTNAME_INVALID: /);
    assert.deepEqual(
      servernames.filter((name) => name !== false),
      ["localhost"],
      "the named calls shared one socket, with SNI; an IP address is not sent as SNI",
    );
  });
});
