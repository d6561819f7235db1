import { type Dispatcher, Pool } from "undici";
import { z } from "zod";

/** Why a call gave no usable answer without the upstream saying no. */
export type UnavailableReason = "timeout" | "aborted" | "transport" | "server-error" | "malformed";

/** An upstream's answer as read: status, headers and the body as text. */
export interface RawAnswer {
  statusCode: number;
  headers: Dispatcher.ResponseData["headers"];
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

class AnswerTooLarge extends Error {
  constructor() {
    super(`upstream answer over ${MAX_ANSWER_BYTES} bytes`);
    this.name = "AnswerTooLarge";
  }
}

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

const ONCE = { once: true } as const;

/**
 * One call's answer as undici's dispatch callbacks hand it over: the body gathered in chunks up to
 * MAX_ANSWER_BYTES, under the upstream's timeout and the caller's signal. It does what `pool.request`
 * with a composite signal did (the same errors and abort reasons reach the caller) without a response
 * stream, an async iterator, an AbortController or undici's own signal listener per call.
 */
class UpstreamCall implements Dispatcher.DispatchHandler {
  timedOut = false;
  private controller: Dispatcher.DispatchController | undefined;
  private pendingReason: Error | undefined;
  private statusCode = 0;
  private headers: RawAnswer["headers"] = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly timer: NodeJS.Timeout;
  private resolve!: (answer: RawAnswer) => void;
  private reject!: (error: unknown) => void;
  readonly answer: Promise<RawAnswer>;

  constructor(
    private readonly signal: AbortSignal | undefined,
    timeoutMs: number,
  ) {
    this.answer = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    this.timer = setTimeout(onCallTimeout, timeoutMs, this);
    this.timer.unref();
    signal?.addEventListener("abort", this, ONCE);
  }

  /** The caller's signal fired: the call ends with its reason. */
  handleEvent(): void {
    this.abort(this.signal!.reason);
  }

  abort(reason: Error): void {
    // Before undici hands the call a controller (still queued for a connection), it aborts on start.
    if (this.controller) this.controller.abort(reason);
    else this.pendingReason ??= reason;
  }

  /** Stops the timer and the signal's listener. */
  finish(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.pendingReason !== undefined) controller.abort(this.pendingReason);
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: RawAnswer["headers"],
  ): void {
    // An informational answer (1xx) is not the answer.
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = headers;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > MAX_ANSWER_BYTES) {
      controller.abort(new AnswerTooLarge());
      return;
    }
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    const { chunks } = this;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    this.resolve({ statusCode: this.statusCode, headers: this.headers, text: body.toString("utf8") });
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    this.reject(error);
  }
}

function onCallTimeout(call: UpstreamCall): void {
  call.timedOut = true;
  call.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
}

/**
 * Calls to one upstream over one undici keep-alive pool. Every call runs under the upstream's
 * timeout and the caller's signal; undici's own timeouts are off so only those two end a call.
 */
export function createUpstreamSender(
  config: UpstreamSenderConfig,
  observe?: UpstreamCallObserver,
): UpstreamSender {
  const base = new URL(config.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  const pool = new Pool(base.origin, {
    connections: config.connections,
    keepAliveTimeout: 30_000,
    headersTimeout: 0,
    bodyTimeout: 0,
    pipelining: 1,
  });
  const sharedHeaders: Record<string, string> = {
    accept: "application/json",
    "user-agent": "intent-hub/0.1",
    ...config.headers,
  };
  const jsonHeaders = { ...sharedHeaders, "content-type": "application/json" };

  async function send(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Sent> {
    if (signal?.aborted)
      return { ok: false, notSent: true, reason: "aborted", cause: describe(signal.reason) };
    const call = new UpstreamCall(signal, config.timeoutMs);
    try {
      pool.dispatch(
        body === undefined
          ? { method, path: `${basePath}${path}`, headers: sharedHeaders }
          : { method, path: `${basePath}${path}`, headers: jsonHeaders, body: JSON.stringify(body) },
        call,
      );
      return { ok: true, answer: await call.answer };
    } catch (error) {
      if (error instanceof AnswerTooLarge) {
        return { ok: false, notSent: false, reason: "malformed", cause: error.message };
      }
      const code = errorCode(error);
      if (code !== undefined && NOT_SENT_CODES.has(code)) {
        return { ok: false, notSent: true, reason: "transport", cause: describe(error) };
      }
      if (call.timedOut) {
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
    } finally {
      call.finish();
    }
  }

  return {
    send: observe
      ? async (method, path, body, signal) => {
          const sent = await send(method, path, body, signal);
          observe(resultOf(sent));
          return sent;
        }
      : send,
    close: () => pool.close(),
  };
}
