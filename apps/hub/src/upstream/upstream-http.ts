import { channel } from "node:diagnostics_channel";
import { CallDeadline } from "./call-deadline.js";
import { type AnswerHeadListener, UpstreamAnswerParser } from "./upstream-answer-parser.js";
import { createRequestEncoder } from "./request-encoder.js";
import { failureOf } from "./send-failure.js";
import type { Sent, UnavailableReason } from "./sent.js";
import { describe } from "./describe-error.js";
import { createUpstreamConnectionPool } from "./upstream-connection-pool.js";

export { describe, parseJson } from "./describe-error.js";
export { type ReadFailure, readFailureOf, refusalOf, retryAfterSeconds } from "./read-failure.js";
export type { RawAnswer, Sent, UnavailableReason } from "./sent.js";

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

// Diagnostics channels for tools that watch upstream calls (the quotes benchmark's provider holds), in
// the shape undici gave its own: `{ request }` at a call's start, in its caller's context, and
// `{ request, response: { statusCode, headers } }` (raw header buffers) when its answer's head is read.
export const UPSTREAM_REQUEST_CHANNEL = "hub:upstream:request";
export const UPSTREAM_ANSWER_HEAD_CHANNEL = "hub:upstream:answer-head";
const requestCreated = channel(UPSTREAM_REQUEST_CHANNEL);
const answerHeadRead = channel(UPSTREAM_ANSWER_HEAD_CHANNEL);

function rawHeadersOf(lines: readonly string[]): Buffer[] {
  return lines.map((line) => Buffer.from(line, "latin1"));
}

function announceHead(request: object): AnswerHeadListener {
  return (statusCode, lines) =>
    answerHeadRead.publish({ request, response: { statusCode, headers: rawHeadersOf(lines) } });
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
  const connections = createUpstreamConnectionPool(base, config.connections);
  const requestBytes = createRequestEncoder(base.host, config.headers);

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
        sent = failureOf(error, deadline, signal, config.timeoutMs);
      } finally {
        deadline.dispose();
      }
    }
    observe?.(resultOf(sent));
    return sent;
  }

  return { send, close: () => connections.close() };
}
