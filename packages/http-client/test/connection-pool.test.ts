import assert from "node:assert/strict";
import { type AddressInfo, createServer, type Server, type Socket } from "node:net";
import { after, describe, test } from "node:test";
import { type ConnectionPoolConfig, createConnectionPool, type PoolDeadline } from "../src/index.js";
import { type PlainAnswer, PlainReader } from "./plain-reader.js";

/** A loopback server that hands each request it reads (up to its blank line) to `answer`, with its connection's number. */
function rawServer(answer: (socket: Socket, request: string, connection: number) => void) {
  const requests: string[] = [];
  const sockets: Socket[] = [];
  const server: Server = createServer((socket) => {
    const connection = sockets.push(socket) - 1;
    socket.on("error", () => {});
    let buffered = "";
    socket.on("data", (chunk) => {
      buffered += chunk.toString("latin1");
      for (let end = buffered.indexOf("\r\n\r\n"); end !== -1; end = buffered.indexOf("\r\n\r\n")) {
        const request = buffered.slice(0, end + 4);
        buffered = buffered.slice(end + 4);
        requests.push(request);
        answer(socket, request, connection);
      }
    });
  });
  return {
    requests,
    sockets,
    async listen(): Promise<URL> {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    },
    async close(): Promise<void> {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function ok(body: string, extra = ""): string {
  return `HTTP/1.1 200 OK\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** A deadline a test fires by hand, heard through `attach`. */
class TestDeadline implements PoolDeadline {
  aborted = false;
  abort: (() => void) | undefined;

  fire(): void {
    this.aborted = true;
    this.abort?.();
  }
}

type Config = ConnectionPoolConfig<string, TestDeadline>;

function config(origin: URL, overrides: Partial<Config> = {}): Config {
  return {
    origin,
    connections: 2,
    requestBytes: (path) => `GET ${path} HTTP/1.1\r\nhost: ${origin.host}\r\n\r\n`,
    keepAliveTimeoutMs: 30_000,
    keepAliveMaxTimeoutMs: 600_000,
    sweepIntervalMs: 1_000,
    unrefIdle: true,
    resetEndsReadToClose: false,
    closedError: () => new Error("pool closed"),
    socketClosedError: () => new Error("socket closed"),
    deadlineReason: () => new Error("deadline passed"),
    deadlines: {
      attach: (deadline, abort) => {
        deadline.abort = abort;
      },
    },
    ...overrides,
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
  assert.ok(condition(), what);
}

const servers: { close(): Promise<void> }[] = [];
after(async () => {
  for (const server of servers) await server.close();
});

async function started(answer: Parameters<typeof rawServer>[0]) {
  const server = rawServer(answer);
  servers.push(server);
  return { server, origin: await server.listen() };
}

describe("the keep-alive connection pool", () => {
  test("a kept-alive socket carries the next call; calls beyond `connections` wait their turn in order", async () => {
    const { server, origin } = await started((socket, request) =>
      setImmediate(() => socket.write(ok(request.split(" ")[1]!))),
    );
    const pool = createConnectionPool<string, PlainAnswer, TestDeadline>(config(origin));
    const paths = ["/1", "/2", "/3", "/4", "/5"];
    const answers = await Promise.all(paths.map((path) => pool.exchange(path, new PlainReader(), undefined)));
    assert.deepEqual(
      answers.map((answer) => answer.body),
      paths,
    );
    assert.equal(server.sockets.length, 2);
    assert.equal((await pool.exchange("/6", new PlainReader(), undefined)).body, "/6");
    assert.equal(server.sockets.length, 2);
    await pool.close();
  });

  test("a call whose bytes cannot be made fails alone, and its connection serves the next call", async () => {
    const { server, origin } = await started((socket) => socket.write(ok("{}")));
    const pool = createConnectionPool<string, PlainAnswer, TestDeadline>(
      config(origin, {
        connections: 1,
        requestBytes: (path) => {
          if (path === "/bad") throw new Error("bad request");
          return `GET ${path} HTTP/1.1\r\n\r\n`;
        },
      }),
    );
    await pool.exchange("/a", new PlainReader(), undefined);
    await assert.rejects(pool.exchange("/bad", new PlainReader(), undefined), /bad request/);
    await pool.exchange("/b", new PlainReader(), undefined);
    assert.equal(server.sockets.length, 1);
    assert.equal(server.requests.length, 2);
    await pool.close();
  });

  test("an answer that ends its connection's use, or bytes on an idle socket, close that socket", async () => {
    const { server, origin } = await started((socket, request) => {
      if (request.startsWith("GET /close")) socket.write(ok("{}", "connection: close\r\n"));
      else {
        socket.write(ok("{}"));
        if (request.startsWith("GET /extra")) setImmediate(() => socket.write("HTTP/1.1 200 OK\r\n"));
      }
    });
    const pool = createConnectionPool<string, PlainAnswer, TestDeadline>(config(origin, { connections: 1 }));
    await pool.exchange("/close", new PlainReader(), undefined);
    await pool.exchange("/extra", new PlainReader(), undefined);
    await until(() => server.sockets[1]?.destroyed === true, "the idle socket that got bytes is closed");
    await pool.exchange("/next", new PlainReader(), undefined);
    assert.equal(server.sockets.length, 3);
    await pool.close();
  });

  test("a keep-alive hint of 2 s or less keeps no socket", async () => {
    const { server, origin } = await started((socket) => socket.write(ok("{}", "keep-alive: timeout=2\r\n")));
    const pool = createConnectionPool<string, PlainAnswer, TestDeadline>(config(origin, { connections: 1 }));
    await pool.exchange("/a", new PlainReader(), undefined);
    await pool.exchange("/b", new PlainReader(), undefined);
    assert.equal(server.sockets.length, 2);
    await pool.close();
  });

  test("a close mid-answer fails the call with the reader's error; a close to end a read-to-close answer ends it", async () => {
    const { origin } = await started((socket, request) => {
      if (request.startsWith("GET /short")) socket.end("HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\nshort");
      else socket.end("HTTP/1.1 200 OK\r\n\r\nto the close");
    });
    const pool = createConnectionPool<string, PlainAnswer, TestDeadline>(config(origin));
    await assert.rejects(pool.exchange("/short", new PlainReader(), undefined), /cut short/);
    const answer = await pool.exchange("/close", new PlainReader(), undefined);
    assert.equal(answer.body, "to the close");
    await pool.close();
  });

  test("a reset after a read-to-close answer ends it only with resetEndsReadToClose", async () => {
    const { origin } = await started((socket) => {
      socket.write("HTTP/1.1 200 OK\r\n\r\npartial", () => setTimeout(() => socket.resetAndDestroy(), 20));
    });
    const undiciLike = createConnectionPool<string, PlainAnswer, TestDeadline>(
      config(origin, { resetEndsReadToClose: true }),
    );
    assert.equal((await undiciLike.exchange("/", new PlainReader(), undefined)).body, "partial");
    await undiciLike.close();
    const strict = createConnectionPool<string, PlainAnswer, TestDeadline>(config(origin));
    await assert.rejects(strict.exchange("/", new PlainReader(), undefined), { code: "ECONNRESET" });
    await strict.close();
  });

  test("an attached deadline cuts a held call's socket and takes a queued call out of the queue", async () => {
    const { server, origin } = await started(() => {});
    const pool = createConnectionPool<string, PlainAnswer, TestDeadline>(config(origin, { connections: 1 }));
    const held = new TestDeadline();
    const queued = new TestDeadline();
    const first = pool.exchange("/held", new PlainReader(), held);
    const second = pool.exchange("/queued", new PlainReader(), queued);
    await until(() => server.requests.length === 1, "the first call is written");
    queued.fire();
    await assert.rejects(second, /deadline passed/);
    held.fire();
    await assert.rejects(first, /deadline passed/);
    assert.equal(held.abort, undefined, "the abort is taken back at the call's end");
    await until(() => server.sockets[0]?.destroyed === true, "the held call's socket is cut");
    assert.equal(server.requests.length, 1);
    await pool.close();
  });

  test("a watched deadline is read while calls are in flight; one passed before the call is never sent", async () => {
    const { server, origin } = await started(() => {});
    const pool = createConnectionPool<string, PlainAnswer, TestDeadline>(
      config(origin, { deadlines: { watchEveryMs: 5 } }),
    );
    await assert.rejects(
      pool.exchange("/late", new PlainReader(), { aborted: true } as TestDeadline),
      /deadline/,
    );
    const deadline = new TestDeadline();
    const call = pool.exchange("/held", new PlainReader(), deadline);
    await until(() => server.requests.length === 1, "the call is written");
    deadline.aborted = true;
    await assert.rejects(call, /deadline passed/);
    assert.equal(server.requests.length, 1);
    await pool.close();
  });

  test("close waits for the calls in flight, then refuses new ones", async () => {
    const { origin } = await started((socket) => setTimeout(() => socket.write(ok("late")), 30));
    const pool = createConnectionPool<string, PlainAnswer, TestDeadline>(config(origin));
    const call = pool.exchange("/", new PlainReader(), undefined);
    await new Promise((resolve) => setImmediate(resolve));
    const closed = pool.close();
    assert.equal((await call).body, "late");
    await closed;
    await assert.rejects(pool.exchange("/", new PlainReader(), undefined), /pool closed/);
  });
});
