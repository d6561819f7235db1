import { connect as connectTcp, isIP, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";

/** What the pool reads a response with: one per call, fed every byte its connection receives. */
export interface ResponseReader<Answer> {
  /** Feeds the next bytes; the answer once complete. Throws on bytes that are not a response. */
  push(chunk: Buffer): Answer | undefined;
  /** True when the body runs to the close. */
  readonly endsAtClose: boolean;
  /** The answer whose body ran to the close (only when `endsAtClose`). */
  end(): Answer;
  /** The error for a connection that ended before its answer did. */
  cutShort(): Error;
}

/** What the pool needs of an answer: whether its connection may carry the next call, and for how long. */
export interface KeptAlive {
  readonly keepAlive: boolean;
  /** The server's `keep-alive: timeout=N`, in ms, when it sent one. */
  readonly keepAliveHintMs: number | undefined;
}

/** A call's deadline as the pool reads it. */
export interface PoolDeadline {
  readonly aborted: boolean;
}

export interface ConnectionPoolConfig<Request, Deadline extends PoolDeadline> {
  /** The server's origin: http:, or https: (node:tls with the default certificate checks and SNI). */
  readonly origin: URL;
  readonly connections: number;
  /** A call's bytes, made when it gets its connection; a throw fails that call alone. */
  readonly requestBytes: (request: Request) => Buffer | string;
  /** How long an idle connection is kept when the answer gave no `keep-alive: timeout=`. */
  readonly keepAliveTimeoutMs: number;
  /** The most an answer's `keep-alive: timeout=` (less 2 s) keeps an idle connection. */
  readonly keepAliveMaxTimeoutMs: number;
  readonly sweepIntervalMs: number;
  /** Idle sockets do not hold the process open (a call in flight does). */
  readonly unrefIdle: boolean;
  /** A reset after an answer that runs to the close ends that answer (undici's way) instead of failing it. */
  readonly resetEndsReadToClose: boolean;
  /** Gives up on a connection not made within `ms`, with that error (given the `host:port` it tried). */
  readonly connectTimeout?: { readonly ms: number; readonly error: (address: string) => Error };
  /** Why a call was refused once `close` was called. */
  readonly closedError: () => Error;
  /** Why a call failed when its socket closed under it without an end or an error. */
  readonly socketClosedError: () => Error;
  /** Why a call ended by its deadline failed. */
  readonly deadlineReason: (deadline: Deadline) => unknown;
  /**
   * How a passed deadline is learnt. `watchEveryMs`: `aborted` is read every that many ms while calls
   * are in flight. `attach`: the deadline is handed the call's abort while the call is out (undefined at
   * its end), to call when it passes.
   */
  readonly deadlines:
    | { readonly watchEveryMs: number }
    | { readonly attach: (deadline: Deadline, abort: (() => void) | undefined) => void };
}

/** Keep-alive connections to one server: a call is written at once on an idle or new socket, else queued. */
export interface ConnectionPool<Request, Answer, Deadline> {
  /** Sends the request; its answer as `reader` reads it, or a rejection (`deadlineReason` when the deadline ended it). */
  exchange(request: Request, reader: ResponseReader<Answer>, deadline: Deadline | undefined): Promise<Answer>;
  /** Waits for the calls in flight, then closes every connection; calls after it are refused. */
  close(): Promise<void>;
}

/** How long before the server's own keep-alive timeout an idle connection is let go, so the two never cross. */
const KEEP_ALIVE_MARGIN_MS = 2_000;
const TCP_KEEP_ALIVE_DELAY_MS = 60_000;
const READ_BUFFER_BYTES = 64 * 1024;

interface Exchange<Request, Answer, Deadline> {
  readonly request: Request;
  readonly reader: ResponseReader<Answer>;
  readonly deadline: Deadline | undefined;
  readonly resolve: (answer: Answer) => void;
  readonly reject: (error: unknown) => void;
  connection: Connection<Request, Answer, Deadline> | undefined;
  settled: boolean;
}

interface Connection<Request, Answer, Deadline> {
  readonly socket: Socket;
  exchange: Exchange<Request, Answer, Deadline> | undefined;
  connectTimer: NodeJS.Timeout | undefined;
  idleSince: number;
  idleLimitMs: number;
}

/**
 * HTTP/1.1 to one server over at most `connections` keep-alive sockets (node:net, or node:tls), one call
 * per socket at a time, the calls beyond them queued in order. Every socket is always read, so bytes or a
 * close on an idle socket drop it at once: it is never used again. Only the call's deadline ends a call
 * early; a written request is never sent again.
 */
export function createConnectionPool<Request, Answer extends KeptAlive, Deadline extends PoolDeadline>(
  config: ConnectionPoolConfig<Request, Deadline>,
): ConnectionPool<Request, Answer, Deadline> {
  type Call = Exchange<Request, Answer, Deadline>;
  type Link = Connection<Request, Answer, Deadline>;
  const { origin } = config;
  const secure = origin.protocol === "https:";
  const hostname = origin.hostname.replace(/^\[|\]$/g, "");
  const port = origin.port === "" ? (secure ? 443 : 80) : Number(origin.port);
  const servername = isIP(hostname) === 0 ? hostname : "";
  const attach = "attach" in config.deadlines ? config.deadlines.attach : undefined;
  const watchEveryMs = "watchEveryMs" in config.deadlines ? config.deadlines.watchEveryMs : undefined;
  const all = new Set<Link>();
  const idle: Link[] = [];
  const queue: Call[] = [];
  let active = 0;
  let closing = false;
  let closed: Promise<void> | undefined;
  let drained: (() => void) | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let watch: NodeJS.Timeout | undefined;
  let session: Buffer | undefined;
  // Plain sockets read into this one buffer; the reader copies what it keeps before the next read.
  const readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);

  function open(): Link {
    let connection: Link;
    const socket: Socket = secure
      ? connectTls({ host: hostname, port, servername, session, ALPNProtocols: ["http/1.1"] })
      : connectTcp({
          host: hostname,
          port,
          noDelay: true,
          keepAlive: true,
          keepAliveInitialDelay: TCP_KEEP_ALIVE_DELAY_MS,
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
      connectTimer: undefined,
      idleSince: 0,
      idleLimitMs: config.keepAliveTimeoutMs,
    };
    all.add(connection);
    if (secure) {
      socket.setKeepAlive(true, TCP_KEEP_ALIVE_DELAY_MS);
      socket.setNoDelay(true);
      socket.on("data", (chunk: Buffer) => received(connection, chunk));
      socket.on("session", (ticket: Buffer) => {
        session = ticket;
      });
    }
    const { connectTimeout } = config;
    if (connectTimeout !== undefined) {
      connection.connectTimer = setTimeout(
        () => fail(connection, connectTimeout.error(`${hostname}:${port}`)),
        connectTimeout.ms,
      );
      connection.connectTimer.unref();
      socket.once(secure ? "secureConnect" : "connect", () => {
        clearTimeout(connection.connectTimer);
        connection.connectTimer = undefined;
      });
    }
    socket.on("error", (error) => failed(connection, error));
    socket.on("end", () => ended(connection));
    socket.on("close", () => fail(connection, undefined));
    return connection;
  }

  function start(connection: Link, exchange: Call): void {
    let bytes: Buffer | string;
    try {
      bytes = config.requestBytes(exchange.request);
    } catch (error) {
      settle(exchange);
      exchange.reject(error);
      release(connection, undefined);
      return;
    }
    connection.exchange = exchange;
    exchange.connection = connection;
    if (config.unrefIdle) connection.socket.ref();
    if (typeof bytes === "string") connection.socket.write(bytes, "latin1");
    else connection.socket.write(bytes);
  }

  function assign(exchange: Call): void {
    const now = Date.now();
    let connection = idle.pop();
    while (
      connection !== undefined &&
      (!connection.socket.writable || now - connection.idleSince >= connection.idleLimitMs)
    ) {
      discard(connection);
      connection = idle.pop();
    }
    if (connection !== undefined) start(connection, exchange);
    else if (all.size < config.connections) start(open(), exchange);
    else queue.push(exchange);
  }

  function received(connection: Link, chunk: Buffer): void {
    const exchange = connection.exchange;
    if (exchange === undefined) {
      // Bytes on an idle socket answer nothing that was asked: the socket is not used again.
      discard(connection);
      return;
    }
    let answer: Answer | undefined;
    try {
      answer = exchange.reader.push(chunk);
    } catch (error) {
      fail(connection, error);
      return;
    }
    if (answer === undefined) return;
    connection.exchange = undefined;
    settle(exchange);
    exchange.resolve(answer);
    release(connection, answer);
  }

  /** The socket is done with its call (`answer`, if it had one): it takes the next queued call, waits idle, or goes. */
  function release(connection: Link, answer: Answer | undefined): void {
    if (answer !== undefined) {
      if (!answer.keepAlive) {
        discard(connection);
        return;
      }
      const hintMs = answer.keepAliveHintMs;
      connection.idleLimitMs =
        hintMs === undefined
          ? config.keepAliveTimeoutMs
          : Math.min(hintMs - KEEP_ALIVE_MARGIN_MS, config.keepAliveMaxTimeoutMs);
    }
    if (connection.idleLimitMs <= 0 || !connection.socket.writable) {
      discard(connection);
      return;
    }
    const next = queue.shift();
    if (next !== undefined) {
      start(connection, next);
      return;
    }
    if (closing) {
      discard(connection);
      return;
    }
    connection.idleSince = Date.now();
    if (config.unrefIdle) connection.socket.unref();
    idle.push(connection);
    sweep ??= setInterval(sweepIdle, config.sweepIntervalMs).unref();
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

  /** The server closed its side: an answer read to the close ends there, any other is cut short. */
  function ended(connection: Link): void {
    const exchange = connection.exchange;
    if (exchange === undefined) discard(connection);
    else if (exchange.reader.endsAtClose) complete(connection, exchange);
    else fail(connection, exchange.reader.cutShort());
  }

  function failed(connection: Link, error: Error): void {
    const exchange = connection.exchange;
    if (
      config.resetEndsReadToClose &&
      exchange?.reader.endsAtClose &&
      (error as { code?: string }).code === "ECONNRESET"
    ) {
      complete(connection, exchange);
      return;
    }
    fail(connection, error);
  }

  function complete(connection: Link, exchange: Call): void {
    connection.exchange = undefined;
    discard(connection);
    settle(exchange);
    exchange.resolve(exchange.reader.end());
  }

  /** Drops the connection, failing its call with `error` (a close with none: `socketClosedError`). */
  function fail(connection: Link, error: unknown): void {
    const exchange = connection.exchange;
    connection.exchange = undefined;
    discard(connection);
    if (exchange !== undefined && !exchange.settled) {
      settle(exchange);
      exchange.reject(error ?? config.socketClosedError());
    }
  }

  /** Drops a socket for good; a queued call takes its place on a new one. */
  function discard(connection: Link): void {
    if (!all.delete(connection)) return;
    const at = idle.indexOf(connection);
    if (at !== -1) idle.splice(at, 1);
    if (connection.connectTimer !== undefined) clearTimeout(connection.connectTimer);
    connection.socket.destroy();
    const next = queue.shift();
    if (next !== undefined) assign(next);
  }

  function settle(exchange: Call): void {
    exchange.settled = true;
    if (attach !== undefined && exchange.deadline !== undefined) attach(exchange.deadline, undefined);
    active -= 1;
    if (active === 0) drained?.();
  }

  /**
   * With `watchEveryMs` the deadline is read, not listened to. The check stops on a tick with no call in
   * flight, not at every moment none is: under load the count touches zero many times a second, and a
   * timer set and cleared each time cost more than a tick.
   */
  function checkDeadlines(): void {
    if (active === 0) {
      clearInterval(watch);
      watch = undefined;
      return;
    }
    for (const connection of all) {
      const exchange = connection.exchange;
      const deadline = exchange?.deadline;
      if (deadline?.aborted) abort(exchange!, deadline);
    }
    for (const exchange of [...queue]) {
      if (exchange.deadline?.aborted) abort(exchange, exchange.deadline);
    }
  }

  /** The deadline passed: the socket is cut (the server sees the close), or the call leaves the queue. */
  function abort(exchange: Call, deadline: Deadline): void {
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
    exchange.reject(config.deadlineReason(deadline));
  }

  return {
    exchange(request, reader, deadline) {
      return new Promise((resolve, reject) => {
        if (closing) {
          reject(config.closedError());
          return;
        }
        if (deadline?.aborted) {
          reject(config.deadlineReason(deadline));
          return;
        }
        const exchange: Call = {
          request,
          reader,
          deadline,
          resolve,
          reject,
          connection: undefined,
          settled: false,
        };
        if (deadline !== undefined) {
          if (attach !== undefined) attach(deadline, () => abort(exchange, deadline));
          else watch ??= setInterval(checkDeadlines, watchEveryMs).unref();
        }
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
        if (watch !== undefined) clearInterval(watch);
        watch = undefined;
      })();
      return closed;
    },
  };
}
