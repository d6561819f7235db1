import { connect, type Socket } from "node:net";
import type { HubAnswer, HubCall, HubTransport } from "@hub/contract";
import { HubAnswerParser } from "./hub-answer-parser.js";
import { HubTransportError } from "./hub-transport-error.js";

/** Where the hub listens and how many keep-alive connections the gateway keeps to it. */
export interface HttpHubTransportConfig {
  readonly url: string;
  readonly connections: number;
  readonly keepAliveTimeoutMs?: number;
}

/** How long before the hub's own keep-alive timeout an idle connection is let go, so the two never cross. */
const KEEP_ALIVE_MARGIN_MS = 2_000;
const SWEEP_INTERVAL_MS = 500;
/** How often the calls in flight are checked for a passed deadline (their connection is then cut). */
const DEADLINE_CHECK_MS = 10;
const READ_BUFFER_BYTES = 64 * 1024;
const PAYLOAD_METHODS = new Set(["POST", "PUT", "PATCH"]);
const INVALID_PATH = /[^\u0021-\u00ff]/;
const INVALID_HEADER_VALUE = /[^\t\u0020-\u007e\u0080-\u00ff]/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

interface Exchange {
  readonly call: HubCall;
  readonly resolve: (answer: HubAnswer) => void;
  readonly reject: (error: unknown) => void;
  connection: Connection | undefined;
  settled: boolean;
}

interface Connection {
  readonly socket: Socket;
  exchange: Exchange | undefined;
  parser: HubAnswerParser | undefined;
  error: Error | undefined;
  idleSince: number;
  idleLimitMs: number;
}

/** How many header names and values are remembered as already checked; past it, each is checked anew. */
const CHECKED_HEADERS_KEPT = 64;

/**
 * Builds each request's head and body as one buffer, so each call is one write. Header names and the
 * last value seen under each are remembered once checked: the gateway sends the same few names, most
 * with the same value (agent, language, credential, organization), on every call.
 */
function createRequestWriter(host: string): (call: HubCall) => Buffer | string {
  const checked = new Map<string, string>();
  return function requestBytes(call) {
    if (!TOKEN.test(call.method)) throw new Error("invalid request method");
    if (INVALID_PATH.test(call.url)) throw new Error("invalid request path");
    let head = `${call.method} ${call.url} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n`;
    const headers = call.headers;
    for (const name in headers) {
      const value = headers[name]!;
      const known = checked.get(name);
      if (known === undefined || known !== value) {
        if (!TOKEN.test(name) || INVALID_HEADER_VALUE.test(value)) throw new Error(`invalid ${name} header`);
        if (checked.size < CHECKED_HEADERS_KEPT || checked.has(name)) checked.set(name, value);
      }
      head += `${name}: ${value}\r\n`;
    }
    const body = call.body;
    if (body === undefined || body.length === 0) {
      return PAYLOAD_METHODS.has(call.method) ? `${head}content-length: 0\r\n\r\n` : `${head}\r\n`;
    }
    head += `content-length: ${body.length}\r\n\r\n`;
    const bytes = Buffer.allocUnsafe(head.length + body.length);
    bytes.write(head, 0, "latin1");
    body.copy(bytes, head.length);
    return bytes;
  };
}

/**
 * The transport when the hub runs in another process: HTTP/1.1 over at most `connections` keep-alive
 * sockets to the hub's listener, one call per socket at a time, the calls beyond them queued in order.
 * Only the call's deadline ends a call early; a written request is never sent again.
 */
export function createHttpHubTransport(config: HttpHubTransportConfig): HubTransport {
  const target = new URL(config.url);
  if (target.protocol !== "http:") throw new Error(`the hub's URL must be http: ${config.url}`);
  const hostname = target.hostname.replace(/^\[|\]$/g, "");
  const port = target.port === "" ? 80 : Number(target.port);
  const keepAliveMs = config.keepAliveTimeoutMs ?? 30_000;
  const all = new Set<Connection>();
  const idle: Connection[] = [];
  const queue: Exchange[] = [];
  let active = 0;
  let closing = false;
  let closed: Promise<void> | undefined;
  let drained: (() => void) | undefined;
  let sweep: NodeJS.Timeout | undefined;
  let watch: NodeJS.Timeout | undefined;
  // Every connection reads into this one buffer; the parser copies what it keeps before the next read.
  const readBuffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  const requestBytes = createRequestWriter(target.host);

  function open(): Connection {
    const socket = connect({
      host: hostname,
      port,
      noDelay: true,
      keepAlive: true,
      keepAliveInitialDelay: 60_000,
      onread: {
        buffer: readBuffer,
        callback: (length: number) => {
          received(connection, readBuffer.subarray(0, length));
          return true;
        },
      },
    });
    const connection: Connection = {
      socket,
      exchange: undefined,
      parser: undefined,
      error: undefined,
      idleSince: 0,
      idleLimitMs: keepAliveMs,
    };
    all.add(connection);
    socket.on("error", (error) => {
      connection.error = error;
    });
    socket.on("end", () => ended(connection, true));
    socket.on("close", () => ended(connection, false));
    return connection;
  }

  function start(connection: Connection, exchange: Exchange): void {
    let bytes: Buffer | string;
    try {
      bytes = requestBytes(exchange.call);
    } catch (error) {
      settle(exchange);
      exchange.reject(error);
      release(connection, undefined);
      return;
    }
    connection.exchange = exchange;
    connection.parser = new HubAnswerParser(exchange.call.method);
    exchange.connection = connection;
    if (typeof bytes === "string") connection.socket.write(bytes, "latin1");
    else connection.socket.write(bytes);
  }

  function assign(exchange: Exchange): void {
    let connection = idle.pop();
    while (connection !== undefined && !connection.socket.writable) {
      discard(connection);
      connection = idle.pop();
    }
    if (connection !== undefined) start(connection, exchange);
    else if (all.size < config.connections) start(open(), exchange);
    else queue.push(exchange);
  }

  function received(connection: Connection, chunk: Buffer): void {
    const exchange = connection.exchange;
    if (exchange === undefined || connection.parser === undefined) {
      // Bytes on an idle connection answer nothing that was asked.
      discard(connection);
      return;
    }
    let parsed: ReturnType<HubAnswerParser["push"]>;
    try {
      parsed = connection.parser.push(chunk);
    } catch (error) {
      fail(connection, error);
      return;
    }
    if (parsed === undefined) return;
    connection.exchange = undefined;
    connection.parser = undefined;
    settle(exchange);
    exchange.resolve(parsed.answer);
    release(connection, parsed.keepAlive ? parsed.keepAliveHintMs : 0);
  }

  /** The connection is done with its call: it takes the next queued call, waits idle, or goes. */
  function release(connection: Connection, hintMs: number | undefined): void {
    if (hintMs !== undefined) connection.idleLimitMs = Math.min(keepAliveMs, hintMs - KEEP_ALIVE_MARGIN_MS);
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

  function ended(connection: Connection, clean: boolean): void {
    if (!all.has(connection)) return;
    const exchange = connection.exchange;
    if (
      exchange !== undefined &&
      connection.parser !== undefined &&
      clean &&
      connection.error === undefined
    ) {
      let parsed: ReturnType<HubAnswerParser["end"]> | undefined;
      try {
        parsed = connection.parser.end();
      } catch (error) {
        fail(connection, error);
        return;
      }
      connection.exchange = undefined;
      settle(exchange);
      exchange.resolve(parsed.answer);
      discard(connection);
      return;
    }
    fail(connection, connection.error ?? new Error("the hub closed the connection before its answer"));
  }

  function fail(connection: Connection, error: unknown): void {
    const exchange = connection.exchange;
    connection.exchange = undefined;
    discard(connection);
    if (exchange !== undefined && !exchange.settled) {
      settle(exchange);
      exchange.reject(error);
    }
  }

  /** Drops a connection for good; a queued call takes its place on a new one. */
  function discard(connection: Connection): void {
    if (!all.delete(connection)) return;
    const at = idle.indexOf(connection);
    if (at !== -1) idle.splice(at, 1);
    connection.socket.destroy();
    const next = queue.shift();
    if (next !== undefined) assign(next);
  }

  function settle(exchange: Exchange): void {
    exchange.settled = true;
    active -= 1;
    if (active === 0) drained?.();
  }

  /**
   * The deadline is read, not listened to: listening would make each call's AbortController, which the
   * deadline makes only when asked for its signal. A passed deadline cuts the call within DEADLINE_CHECK_MS.
   */
  function checkDeadlines(): void {
    // The check stops on a tick with no call in flight, not at every moment none is: under load the
    // count touches zero many times a second, and a timer set and cleared each time cost more than a tick.
    if (active === 0) {
      clearInterval(watch);
      watch = undefined;
      return;
    }
    for (const connection of all) {
      const exchange = connection.exchange;
      if (exchange?.call.deadline?.aborted) abort(exchange, new Error("the gateway's deadline passed"));
    }
    for (const exchange of [...queue]) {
      if (exchange.call.deadline?.aborted) abort(exchange, new Error("the gateway's deadline passed"));
    }
  }

  function abort(exchange: Exchange, reason: unknown): void {
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
    exchange.reject(reason);
  }

  function exchangeOf(call: HubCall): Promise<HubAnswer> {
    return new Promise((resolve, reject) => {
      if (closing) {
        reject(new Error("the HTTP transport is closed"));
        return;
      }
      if (call.deadline?.aborted) {
        reject(new Error("the gateway's deadline passed"));
        return;
      }
      const exchange: Exchange = { call, resolve, reject, connection: undefined, settled: false };
      active += 1;
      if (call.deadline !== undefined) watch ??= setInterval(checkDeadlines, DEADLINE_CHECK_MS).unref();
      assign(exchange);
    });
  }

  return {
    send(call): Promise<HubAnswer> {
      return exchangeOf(call).then(undefined, (error: unknown) => {
        if (call.deadline?.aborted) {
          throw new HubTransportError("timeout", "the gateway's timeout fired", { cause: error });
        }
        throw new HubTransportError("unreachable", "no answer from the hub over HTTP", { cause: error });
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
