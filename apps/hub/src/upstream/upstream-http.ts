import { channel } from "node:diagnostics_channel";
import { createConnectionPool } from "@hub/http-client";
import { z } from "zod";
import { CallDeadline } from "./call-deadline.js";
import {
  type AnswerHeaders,
  type AnswerHeadListener,
  AnswerTooLarge,
  type ParsedAnswer,
  socketError,
  UpstreamAnswerParser,
  UpstreamHttpError,
} from "./upstream-answer-parser.js";

/** Why a call gave no usable answer without the upstream saying no. */
export type UnavailableReason = "timeout" | "aborted" | "transport" | "server-error" | "malformed";

/** An upstream's answer as read: status, headers and the body as text. */
export interface RawAnswer {
  statusCode: number;
  headers: AnswerHeaders;
  text: string;
}

/** What one call came to: an answer, or why there is none (notSent: nothing reached the upstream). */
export type Sent =
  | { ok: true; answer: RawAnswer }
  | { ok: false; notSent: boolean; reason: UnavailableReason; cause: string };

/** One upstream's HTTP way: a keep-alive pool, its timeout and headers. */
export interface UpstreamSender {
  send(method: "GET" | "POST", path: string, body: unknown, signal: AbortSignal | undefined): Promise<Sent>;
  close(): Promise<void>;
}

export interface UpstreamSenderConfig {
  baseUrl: string;
  headers: Record<string, string>;
  timeoutMs: number;
  connections: number;
}

/**
 * How one call ended, as metrics count it: the answer's status class (429 apart), or why there was no
 * answer.
 */
export type UpstreamCallResult = "2xx" | "3xx" | "4xx" | "429" | "5xx" | UnavailableReason;

/** Told of every call's end; the operations metrics count them per provider. */
export type UpstreamCallObserver = (result: UpstreamCallResult) => void;

function resultOf(sent: Sent): UpstreamCallResult {
  if (!sent.ok) return sent.reason;
  const status = sent.answer.statusCode;
  if (status === 429) return "429";
  if (status >= 500) return "5xx";
  if (status >= 400) return "4xx";
  return status >= 300 ? "3xx" : "2xx";
}

/** Undefined when a probe's answer has a good status; else why the upstream is not ready. */
export function notReadyReason(sent: Sent, good: (status: number) => boolean): string | undefined {
  if (!sent.ok) return `${sent.reason}: ${sent.cause}`;
  return good(sent.answer.statusCode) ? undefined : `the upstream answered HTTP ${sent.answer.statusCode}`;
}

/** Largest upstream answer the client reads; a bigger one is a malformed answer. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** undici's defaults, kept: idle sockets go after 30 s, or 2 s before the upstream's `keep-alive: timeout=`. */
const KEEP_ALIVE_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_MAX_TIMEOUT_MS = 600_000;
const CONNECT_TIMEOUT_MS = 10_000;
const SWEEP_INTERVAL_MS = 1_000;

/** Failures at connect time: the request was never written, so nothing reached the upstream. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
]);

const errorBodySchema = z.looseObject({ error: z.string().optional(), message: z.string().optional() });

const PATH = /^\/[\u0021-\u00ff]*$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;

// Diagnostics channels for tools that watch upstream calls (the quotes benchmark's provider holds), in
// the shape undici gave its own: `{ request }` at a call's start, in its caller's context, and
// `{ request, response: { statusCode, headers } }` (raw header buffers) when its answer's head is read.
export const UPSTREAM_REQUEST_CHANNEL = "hub:upstream:request";
export const UPSTREAM_ANSWER_HEAD_CHANNEL = "hub:upstream:answer-head";
const requestCreated = channel(UPSTREAM_REQUEST_CHANNEL);
const answerHeadRead = channel(UPSTREAM_ANSWER_HEAD_CHANNEL);

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** An error as one line: its code (when it has one) and message. */
export function describe(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message}` : message;
}

/** Retry-After in whole seconds, when the upstream sent it as such. */
export function retryAfterSeconds(headers: RawAnswer["headers"]): number | undefined {
  const value = headers["retry-after"];
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d{1,6}$/.test(text)) return undefined;
  return Number(text);
}

/** A refusal's `{ error, message }`, or its text as the message. */
export function refusalOf(answer: RawAnswer): { error: string | undefined; message: string } {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(answer.text));
    if (parsed.success) {
      return {
        error: parsed.data.error,
        message: (parsed.data.message ?? answer.text).slice(0, 500),
      };
    }
  } catch {
    // A plain-text refusal (the reference's body rejections) is kept as its message.
  }
  return { error: undefined, message: answer.text.slice(0, 500) };
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; cause: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, cause: `answer is not JSON: ${describe(error)}` };
  }
}

/** How a read (a quote, a lookup) ends when the upstream did not answer it with success. */
export type ReadFailure =
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

/**
 * A read's answer other than its success status: 401/403 auth-refused, 429 rate-limited, another 4xx
 * refused with the upstream's `{error, message}`, a 5xx server-error and anything else malformed.
 */
export function readFailureOf(answer: RawAnswer): ReadFailure {
  const status = answer.statusCode;
  if (status === 401 || status === 403) return { kind: "auth-refused", httpStatus: status };
  if (status === 429) return { kind: "rate-limited", retryAfterSeconds: retryAfterSeconds(answer.headers) };
  if (status >= 400 && status < 500) return { kind: "refused", httpStatus: status, ...refusalOf(answer) };
  return {
    kind: "unavailable",
    reason: status >= 500 ? "server-error" : "malformed",
    cause: `HTTP ${status}: ${answer.text.slice(0, 200)}`,
  };
}

/** The request's header lines after its request line and host, or why they cannot be sent. */
function headerLines(headers: Record<string, string>): string {
  let lines = "connection: keep-alive\r\n";
  for (const name in headers) {
    const value = headers[name]!;
    if (!TOKEN.test(name) || !HEADER_VALUE.test(value)) {
      throw new UpstreamHttpError("UND_ERR_INVALID_ARG", `invalid ${name} header`);
    }
    lines += `${name}: ${value}\r\n`;
  }
  return lines;
}

function rawHeadersOf(lines: readonly string[]): Buffer[] {
  return lines.map((line) => Buffer.from(line, "latin1"));
}

/** The call's deadline is handed the pool's abort while the call is out. */
function attachDeadline(deadline: CallDeadline, abort: (() => void) | undefined): void {
  deadline.onAbort = abort;
}

function identity(bytes: Buffer | string): Buffer | string {
  return bytes;
}

/**
 * Calls to one upstream over keep-alive connections of the hub's own HTTP/1.1 client (node:net, or
 * node:tls with the default certificate checks and SNI; a request is written in the turn it is made).
 * Every call runs under the upstream's timeout and the caller's signal; only those two end a call.
 */
export function createUpstreamSender(
  config: UpstreamSenderConfig,
  observe?: UpstreamCallObserver,
): UpstreamSender {
  const base = new URL(config.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  const connections = createConnectionPool<Buffer | string, ParsedAnswer, CallDeadline>({
    origin: base,
    connections: config.connections,
    requestBytes: identity,
    keepAliveTimeoutMs: KEEP_ALIVE_TIMEOUT_MS,
    keepAliveMaxTimeoutMs: KEEP_ALIVE_MAX_TIMEOUT_MS,
    sweepIntervalMs: SWEEP_INTERVAL_MS,
    unrefIdle: true,
    // A reset after an answer read to the close still ends that answer, as in undici.
    resetEndsReadToClose: true,
    connectTimeout: {
      ms: CONNECT_TIMEOUT_MS,
      error: (address) =>
        new UpstreamHttpError(
          "UND_ERR_CONNECT_TIMEOUT",
          `Connect Timeout Error (attempted address: ${address}, timeout: ${CONNECT_TIMEOUT_MS}ms)`,
        ),
    },
    closedError: () => new UpstreamHttpError("UND_ERR_DESTROYED", "The client is destroyed"),
    socketClosedError: () => socketError("closed"),
    deadlineReason: (deadline) => deadline.reason,
    deadlines: { attach: attachDeadline },
  });
  function announceHead(request: object): AnswerHeadListener {
    return (statusCode, lines) =>
      answerHeadRead.publish({ request, response: { statusCode, headers: rawHeadersOf(lines) } });
  }
  const sharedHeaders: Record<string, string> = {
    accept: "application/json",
    "user-agent": "intent-hub/0.1",
    ...config.headers,
  };
  const postHeaders: Record<string, string> = { ...sharedHeaders, "content-type": "application/json" };
  const host = `host: ${base.host}\r\n`;
  let getLines: string | UpstreamHttpError;
  let postLines: string | UpstreamHttpError;
  try {
    getLines = host + headerLines(sharedHeaders);
    postLines = host + headerLines(postHeaders);
  } catch (error) {
    getLines = postLines = error as UpstreamHttpError;
  }

  /** The request as one write: head and body. */
  function requestBytes(method: "GET" | "POST", path: string, body: unknown): Buffer | string {
    if (!PATH.test(path)) throw new UpstreamHttpError("UND_ERR_INVALID_ARG", "invalid request path");
    const lines = body === undefined ? getLines : postLines;
    if (typeof lines !== "string") throw lines;
    const head = `${method} ${path} HTTP/1.1\r\n${lines}`;
    if (body === undefined) return method === "POST" ? `${head}content-length: 0\r\n\r\n` : `${head}\r\n`;
    const text = JSON.stringify(body);
    const length = Buffer.byteLength(text);
    const withLength = `${head}content-length: ${length}\r\n\r\n`;
    const bytes = Buffer.allocUnsafe(withLength.length + length);
    bytes.write(withLength, 0, "latin1");
    bytes.write(text, withLength.length, "utf8");
    return bytes;
  }

  function failureOf(error: unknown, deadline: CallDeadline, signal: AbortSignal | undefined): Sent {
    if (error instanceof AnswerTooLarge) {
      return { ok: false, notSent: false, reason: "malformed", cause: error.message };
    }
    const code = errorCode(error);
    if (code !== undefined && NOT_SENT_CODES.has(code)) {
      return { ok: false, notSent: true, reason: "transport", cause: describe(error) };
    }
    if (deadline.timedOut) {
      return {
        ok: false,
        notSent: false,
        reason: "timeout",
        cause: `no answer within ${config.timeoutMs} ms`,
      };
    }
    if (signal?.aborted) {
      return { ok: false, notSent: false, reason: "aborted", cause: describe(signal.reason) };
    }
    return { ok: false, notSent: false, reason: "transport", cause: describe(error) };
  }

  async function send(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Sent> {
    let sent: Sent;
    if (signal?.aborted) {
      sent = { ok: false, notSent: true, reason: "aborted", cause: describe(signal.reason) };
    } else {
      const deadline = new CallDeadline(signal, config.timeoutMs);
      try {
        const fullPath = basePath + path;
        const bytes = requestBytes(method, fullPath, body);
        let tag: object | undefined;
        if (requestCreated.hasSubscribers || answerHeadRead.hasSubscribers) {
          tag = { origin: base.origin, method, path: fullPath };
          requestCreated.publish({ request: tag });
        }
        const reader = new UpstreamAnswerParser(
          MAX_ANSWER_BYTES,
          tag === undefined ? undefined : announceHead(tag),
        );
        const answer = await connections.exchange(bytes, reader, deadline);
        sent = {
          ok: true,
          answer: {
            statusCode: answer.statusCode,
            headers: answer.headers,
            text: answer.text,
          },
        };
      } catch (error) {
        sent = failureOf(error, deadline, signal);
      } finally {
        deadline.dispose();
      }
    }
    observe?.(resultOf(sent));
    return sent;
  }

  return { send, close: () => connections.close() };
}
