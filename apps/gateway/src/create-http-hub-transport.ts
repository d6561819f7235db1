import type { Cancellation, HubAnswer, HubCall, HubTransport } from "@hub/contract";
import { createConnectionPool } from "@hub/http-client";
import { HubAnswerParser, type ParsedHubAnswer } from "./hub-answer-parser.js";
import { HubTransportError } from "./hub-transport-error.js";

/** Where the hub listens and how many keep-alive connections the gateway keeps to it. */
export interface HttpHubTransportConfig {
  readonly url: string;
  readonly connections: number;
  readonly keepAliveTimeoutMs?: number;
}

const SWEEP_INTERVAL_MS = 500;
/** How often the calls in flight are checked for a passed deadline (their connection is then cut). */
const DEADLINE_CHECK_MS = 10;
const PAYLOAD_METHODS = new Set(["POST", "PUT", "PATCH"]);
const INVALID_PATH = /[^\u0021-\u00ff]/;
const INVALID_HEADER_VALUE = /[^\t\u0020-\u007e\u0080-\u00ff]/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

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
      const value = headers[name];
      if (value === undefined) continue;
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
  const keepAliveMs = config.keepAliveTimeoutMs ?? 30_000;
  const pool = createConnectionPool<HubCall, ParsedHubAnswer, Cancellation>({
    origin: target,
    connections: config.connections,
    requestBytes: createRequestWriter(target.host),
    keepAliveTimeoutMs: keepAliveMs,
    keepAliveMaxTimeoutMs: keepAliveMs,
    sweepIntervalMs: SWEEP_INTERVAL_MS,
    unrefIdle: false,
    resetEndsReadToClose: false,
    closedError: () => new Error("the HTTP transport is closed"),
    socketClosedError: () => new Error("the hub closed the connection before its answer"),
    deadlineReason: () => new Error("the gateway's deadline passed"),
    // The deadline is read, not listened to: listening would make each call's AbortController, which the
    // deadline makes only when asked for its signal. A passed deadline cuts the call within DEADLINE_CHECK_MS.
    deadlines: { watchEveryMs: DEADLINE_CHECK_MS },
  });

  return {
    send(call): Promise<HubAnswer> {
      return pool
        .exchange(call, new HubAnswerParser(call.method), call.deadline)
        .then(answerOf, (error: unknown) => {
          if (call.deadline?.aborted) {
            throw new HubTransportError("timeout", "the gateway's timeout fired", { cause: error });
          }
          throw new HubTransportError("unreachable", "no answer from the hub over HTTP", { cause: error });
        });
    },
    close: () => pool.close(),
  };
}

function answerOf(parsed: ParsedHubAnswer): HubAnswer {
  return parsed.answer;
}
