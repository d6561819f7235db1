import { connect as connectTcp, isIP, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";
import type { CallDeadline } from "./call-deadline.js";
import { type ParsedAnswer, UpstreamAnswerParser, UpstreamHttpError } from "./upstream-answer-parser.js";

export interface UpstreamConnectionsConfig {
  /** The upstream's origin, http: or https:. */
  readonly origin: URL;
  readonly connections: number;
  readonly maxAnswerBytes: number;
  /** Told when an answer's head has arrived (the diagnostics channel), with the call's `tag`. */
  readonly onHead?: (tag: object, statusCode: number, rawHeaders: readonly string[]) => void;
}

/** Keep-alive connections to one upstream: a call is written at once on an idle or new socket, else queued. */
export interface UpstreamConnections {
  /** Sends the request bytes; the answer, or a rejection (the deadline's reason when it ended the call). */
  exchange(bytes: Buffer | string, deadline: CallDeadline, tag: object | undefined): Promise<ParsedAnswer>;
  close(): Promise<void>;
}

/** undici's defaults, kept: idle sockets go after 30 s, or 2 s before the upstream's `keep-alive: timeout=`. */
const KEEP_ALIVE_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_MAX_TIMEOUT_MS = 600_000;
const KEEP_ALIVE_THRESHOLD_MS = 2_000;
const CONNECT_TIMEOUT_MS = 10_000;
const TCP_KEEP_ALIVE_DELAY_MS = 60_000;
const SWEEP_INTERVAL_MS = 1_000;
const READ_BUFFER_BYTES = 64 * 1024;

interface Exchange {
  readonly bytes: Buffer | string;
  readonly deadline: CallDeadline;
  readonly tag: object | undefined;
  readonly resolve: (answer: ParsedAnswer) => void;
  readonly reject: (error: unknown) => void;
  connection: Connection | undefined;
  settled: boolean;
}

interface Connection {
  readonly socket: Socket;
  exchange: Exchange | undefined;
  parser: UpstreamAnswerParser | undefined;
  headSeen: boolean;
  connectTimer: NodeJS.Timeout | undefined;
  idleSince: number;
  idleLimitMs: number;
}

/**
 * HTTP/1.1 to one upstream over at most `connections` keep-alive sockets (node:net, or node:tls with
 * the default certificate checks and SNI), one call per socket at a time, the calls beyond them queued in
 * order. Every socket is always read, so bytes or a close on an idle socket drop it at once: it is never
 * used again (undici learns the same a loop turn later, before each reuse). Only the call's deadline ends
 * a call early; a written request is never sent again.
 */
export function createUpstreamConnections(config: UpstreamConnectionsConfig): UpstreamConnections {
  const { origin } = config;
  const secure = origin.protocol === "https:";
  const hostname = origin.hostname.replace(/^\[|\]$/g, "");
  const port = origin.port === "" ? (secure ? 443 : 80) : Number(origin.port);
  const servername = isIP(hostname) === 0 ? hostname : "";
  const all = new Set<Connection>();
  const idle: Connection[] = [];
  const queue: Exchange[] = [];
  let active = 0;
  let closing = false;
  let closed: Promise<void> | undefined;
  let drained: (() => void) | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let session: Buffer | undefined;
  // Plain sockets read into this one buffer; the parser copies what it keeps before the next read.
  const readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

  function open(): Connection {
    let connection: Connection;
    const socket: Socket = secure
      ? connectTls({ host: hostname, port, servername, session, ALPNProtocols: ["http/1.1"] })
      : connectTcp({
          host: hostname,
          port,
          onread: {
            buffer: readBuffer,
            callback: (length: number) => {
              received(connection, readBuffer.subarray(0, length));
              return true;
            },
          },
        });
    connection = {
      socket,
      exchange: undefined,
      parser: undefined,
      headSeen: false,
      connectTimer: setTimeout(connectTimedOut, CONNECT_TIMEOUT_MS, () => connection).unref(),
      idleSince: 0,
      idleLimitMs: KEEP_ALIVE_TIMEOUT_MS,
    };
    all.add(connection);
    socket.setKeepAlive(true, TCP_KEEP_ALIVE_DELAY_MS);
    socket.setNoDelay(true);
    if (secure) {
      socket.on("data", (chunk: Buffer) => received(connection, chunk));
      socket.on("session", (ticket: Buffer) => {
        session = ticket;
      });
    }
    socket.once(secure ? "secureConnect" : "connect", () => {
      clearTimeout(connection.connectTimer);
      connection.connectTimer = undefined;
    });
    socket.on("error", (error) => failed(connection, error));
    socket.on("end", () => ended(connection));
    socket.on("close", () => fail(connection, new UpstreamHttpError("UND_ERR_SOCKET", "closed")));
    return connection;
  }

  function connectTimedOut(connectionOf: () => Connection): void {
    fail(
      connectionOf(),
      new UpstreamHttpError(
        "UND_ERR_CONNECT_TIMEOUT",
        `Connect Timeout Error (attempted address: ${hostname}:${port}, timeout: ${CONNECT_TIMEOUT_MS}ms)`,
      ),
    );
  }

  function start(connection: Connection, exchange: Exchange): void {
    connection.exchange = exchange;
    connection.parser = new UpstreamAnswerParser(config.maxAnswerBytes);
    connection.headSeen = false;
    exchange.connection = connection;
    connection.socket.ref();
    if (typeof exchange.bytes === "string") connection.socket.write(exchange.bytes, "latin1");
    else connection.socket.write(exchange.bytes);
  }

  function assign(exchange: Exchange): void {
    const now = Date.now();
    let connection = idle.pop();
    while (connection !== undefined && now - connection.idleSince >= connection.idleLimitMs) {
      discard(connection);
      connection = idle.pop();
    }
    if (connection !== undefined) start(connection, exchange);
    else if (all.size < config.connections) start(open(), exchange);
    else queue.push(exchange);
  }

  function received(connection: Connection, chunk: Buffer): void {
    const { exchange, parser } = connection;
    if (exchange === undefined || parser === undefined) {
      // Bytes on an idle socket answer nothing that was asked: the socket is not used again.
      discard(connection);
      return;
    }
    let answer: ParsedAnswer | undefined;
    try {
      answer = parser.push(chunk);
    } catch (error) {
      fail(connection, error);
      return;
    }
    if (!connection.headSeen && parser.answering) {
      connection.headSeen = true;
      if (exchange.tag !== undefined) config.onHead?.(exchange.tag, parser.status, parser.headerLines);
    }
    if (answer === undefined) return;
    connection.exchange = undefined;
    connection.parser = undefined;
    settle(exchange);
    exchange.resolve(answer);
    release(connection, answer);
  }

  /** The socket is done with its call: it takes the next queued call, waits idle, or goes. */
  function release(connection: Connection, answer: ParsedAnswer): void {
    if (!answer.keepAlive || closing || connection.socket.destroyed) {
      discard(connection);
      return;
    }
    if (answer.keepAliveHintMs !== undefined) {
      const limitMs = Math.min(answer.keepAliveHintMs - KEEP_ALIVE_THRESHOLD_MS, KEEP_ALIVE_MAX_TIMEOUT_MS);
      if (limitMs <= 0) {
        discard(connection);
        return;
      }
      connection.idleLimitMs = limitMs;
    } else connection.idleLimitMs = KEEP_ALIVE_TIMEOUT_MS;
    const next = queue.shift();
    if (next !== undefined) {
      start(connection, next);
      return;
    }
    connection.idleSince = Date.now();
    connection.socket.unref();
    idle.push(connection);
    sweep ??= setInterval(sweepIdle, SWEEP_INTERVAL_MS).unref();
  }

  function sweepIdle(): void {
    const now = Date.now();
    for (const connection of [...idle]) {
      if (now - connection.idleSince >= connection.idleLimitMs) discard(connection);
    }
    if (idle.length === 0 && sweep !== undefined) {
      clearInterval(sweep);
      sweep = undefined;
    }
  }

  /** The upstream closed its side: an answer read to the close ends there, any other is cut short. */
  function ended(connection: Connection): void {
    const { exchange, parser } = connection;
    if (exchange === undefined || parser === undefined || !parser.endsAtClose) {
      fail(connection, parser?.cutShort());
      return;
    }
    complete(connection, exchange, parser);
  }

  function failed(connection: Connection, error: Error): void {
    const { exchange, parser } = connection;
    // A reset after an answer read to the close still ends that answer, as in undici.
    if (
      exchange !== undefined &&
      parser?.endsAtClose === true &&
      (error as { code?: string }).code === "ECONNRESET"
    ) {
      complete(connection, exchange, parser);
      return;
    }
    fail(connection, error);
  }

  function complete(connection: Connection, exchange: Exchange, parser: UpstreamAnswerParser): void {
    connection.exchange = undefined;
    discard(connection);
    settle(exchange);
    exchange.resolve(parser.end());
  }

  function fail(connection: Connection, error: unknown): void {
    const exchange = connection.exchange;
    connection.exchange = undefined;
    discard(connection);
    if (exchange !== undefined && !exchange.settled) {
      settle(exchange);
      exchange.reject(error ?? new UpstreamHttpError("UND_ERR_SOCKET", "other side closed"));
    }
  }

  /** Drops a socket for good; a queued call takes its place on a new one. */
  function discard(connection: Connection): void {
    if (!all.delete(connection)) return;
    const at = idle.indexOf(connection);
    if (at !== -1) idle.splice(at, 1);
    if (connection.connectTimer !== undefined) clearTimeout(connection.connectTimer);
    connection.socket.destroy();
    const next = queue.shift();
    if (next !== undefined) assign(next);
  }

  function settle(exchange: Exchange): void {
    exchange.settled = true;
    exchange.deadline.onAbort = undefined;
    active -= 1;
    if (active === 0) drained?.();
  }

  /** The deadline passed or the caller gave up: the socket is cut (the upstream sees the close). */
  function abort(exchange: Exchange): void {
    if (exchange.settled) return;
    const connection = exchange.connection;
    if (connection !== undefined) {
      connection.exchange = undefined;
      discard(connection);
    } else {
      const at = queue.indexOf(exchange);
      if (at !== -1) queue.splice(at, 1);
    }
    settle(exchange);
    exchange.reject(exchange.deadline.reason);
  }

  return {
    exchange(bytes, deadline, tag) {
      return new Promise((resolve, reject) => {
        if (closing) {
          reject(new UpstreamHttpError("UND_ERR_DESTROYED", "The client is destroyed"));
          return;
        }
        if (deadline.aborted) {
          reject(deadline.reason);
          return;
        }
        const exchange: Exchange = {
          bytes,
          deadline,
          tag,
          resolve,
          reject,
          connection: undefined,
          settled: false,
        };
        deadline.onAbort = () => abort(exchange);
        active += 1;
        assign(exchange);
      });
    },
    close(): Promise<void> {
      closed ??= (async () => {
        closing = true;
        if (active > 0) await new Promise<void>((resolve) => (drained = resolve));
        for (const connection of [...all]) discard(connection);
        if (sweep !== undefined) clearInterval(sweep);
        sweep = undefined;
      })();
      return closed;
    },
  };
}
