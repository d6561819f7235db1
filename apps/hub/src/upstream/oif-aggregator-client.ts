import { type Dispatcher, Pool } from "undici";
import { z } from "zod";
import { type OifOrderResponse, oifOrderResponseSchema } from "./oif-order-response.js";
import type { OifQuoteRequest } from "./oif-quote-request.js";
import type { ProviderConfig } from "./providers-config.js";

/** Why a call gave no usable answer without the upstream saying no. */
export type UnavailableReason = "timeout" | "aborted" | "transport" | "server-error" | "malformed";

/** What one quote call came to. `quotes` are the upstream's QuoteResponse objects exactly as received. */
export type QuoteOutcome =
  | { kind: "quotes"; quotes: unknown[]; latencyMs: number }
  | { kind: "no-quotes"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

/**
 * What one order submission came to. Only `not-sent` proves nothing reached the upstream; `unknown`
 * means it may have (timeout or reset after sending, a 5xx, an answer that does not parse).
 */
export type SubmitOrderOutcome =
  | { kind: "accepted"; orderId: string; status: unknown; order: OifOrderResponse }
  | { kind: "solver-rejected"; message: string }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "not-sent"; cause: string }
  | { kind: "unknown"; cause: string };

/** What one order read came to. */
export type GetOrderOutcome =
  | { kind: "found"; order: OifOrderResponse }
  | { kind: "not-found" }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

/** The hub's way to one OIF aggregator (POST /api/v1/quotes, POST /api/v1/orders, GET /api/v1/orders/{id}). */
export interface OifAggregatorClient {
  readonly provider: ProviderConfig;
  quote(request: OifQuoteRequest, signal?: AbortSignal): Promise<QuoteOutcome>;
  /** Forwards a signed order; `quoteResponse` is echoed verbatim (its integrity checksum included). */
  submitOrder(
    input: { quoteResponse: unknown; signature?: string },
    signal?: AbortSignal,
  ): Promise<SubmitOrderOutcome>;
  getOrder(upstreamOrderId: string, signal?: AbortSignal): Promise<GetOrderOutcome>;
  close(): Promise<void>;
}

export interface OifAggregatorClientDeps {
  /** Milliseconds, monotonic enough for latency figures. */
  now?: () => number;
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
const quotesBodySchema = z.looseObject({ quotes: z.array(z.unknown()) });

interface RawAnswer {
  statusCode: number;
  headers: Dispatcher.ResponseData["headers"];
  text: string;
}

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

function describe(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? error.message : String(error);
  return code ? `${code}: ${message}` : message;
}

function retryAfterSeconds(headers: RawAnswer["headers"]): number | undefined {
  const value = headers["retry-after"];
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d{1,6}$/.test(text)) return undefined;
  return Number(text);
}

function refusalOf(answer: RawAnswer): { error: string | undefined; message: string } {
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

function parseJson(text: string): { ok: true; value: unknown } | { ok: false; cause: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, cause: `answer is not JSON: ${describe(error)}` };
  }
}

async function readBounded(body: Dispatcher.ResponseData["body"]): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_ANSWER_BYTES) {
      body.destroy();
      throw new AnswerTooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * An OIF aggregator client over one undici keep-alive pool. Every call runs under the provider's
 * timeout and the caller's signal; undici's own timeouts are off so only those two end a call.
 */
export function createOifAggregatorClient(
  provider: ProviderConfig,
  deps: OifAggregatorClientDeps = {},
): OifAggregatorClient {
  const now = deps.now ?? (() => performance.now());
  const base = new URL(provider.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, "");
  const pool = new Pool(base.origin, {
    connections: provider.connections,
    keepAliveTimeout: 30_000,
    headersTimeout: 0,
    bodyTimeout: 0,
    pipelining: 1,
  });
  const sharedHeaders: Record<string, string> = {
    accept: "application/json",
    "user-agent": "intent-hub/0.1",
    ...provider.headers,
  };

  type Sent =
    | { ok: true; answer: RawAnswer }
    | { ok: false; notSent: boolean; reason: UnavailableReason; cause: string };

  async function send(
    method: "GET" | "POST",
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
  ): Promise<Sent> {
    if (signal?.aborted)
      return { ok: false, notSent: true, reason: "aborted", cause: describe(signal.reason) };
    const timeout = AbortSignal.timeout(provider.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
    try {
      const response = await pool.request({
        method,
        path: `${basePath}${path}`,
        headers:
          body === undefined ? sharedHeaders : { ...sharedHeaders, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: combined,
      });
      const text = await readBounded(response.body);
      return { ok: true, answer: { statusCode: response.statusCode, headers: response.headers, text } };
    } catch (error) {
      if (error instanceof AnswerTooLarge) {
        return { ok: false, notSent: false, reason: "malformed", cause: error.message };
      }
      const code = errorCode(error);
      if (code !== undefined && NOT_SENT_CODES.has(code)) {
        return { ok: false, notSent: true, reason: "transport", cause: describe(error) };
      }
      if (timeout.aborted) {
        return {
          ok: false,
          notSent: false,
          reason: "timeout",
          cause: `no answer within ${provider.timeoutMs} ms`,
        };
      }
      if (signal?.aborted) {
        return { ok: false, notSent: false, reason: "aborted", cause: describe(signal.reason) };
      }
      return { ok: false, notSent: false, reason: "transport", cause: describe(error) };
    }
  }

  return {
    provider,

    async quote(request, signal) {
      const started = now();
      const sent = await send("POST", "/api/v1/quotes", request, signal);
      if (!sent.ok) return { kind: "unavailable", reason: sent.reason, cause: sent.cause };
      const { answer } = sent;
      const status = answer.statusCode;
      if (status === 200) {
        const json = parseJson(answer.text);
        if (!json.ok) return { kind: "unavailable", reason: "malformed", cause: json.cause };
        const parsed = quotesBodySchema.safeParse(json.value);
        if (!parsed.success) {
          return { kind: "unavailable", reason: "malformed", cause: "answer has no quotes array" };
        }
        return { kind: "quotes", quotes: parsed.data.quotes, latencyMs: now() - started };
      }
      if (status === 401 || status === 403) return { kind: "auth-refused", httpStatus: status };
      if (status === 429)
        return { kind: "rate-limited", retryAfterSeconds: retryAfterSeconds(answer.headers) };
      if (status >= 400 && status < 500) {
        const refusal = refusalOf(answer);
        // The reference answers a round in which no solver quoted with 400 AGGREGATION_ERROR.
        if (refusal.error === "AGGREGATION_ERROR")
          return { kind: "no-quotes", httpStatus: status, ...refusal };
        return { kind: "refused", httpStatus: status, ...refusal };
      }
      return {
        kind: "unavailable",
        reason: status >= 500 ? "server-error" : "malformed",
        cause: `HTTP ${status}: ${answer.text.slice(0, 200)}`,
      };
    },

    async submitOrder(input, signal) {
      const body = {
        quoteResponse: input.quoteResponse,
        ...(input.signature === undefined ? {} : { signature: input.signature }),
      };
      const sent = await send("POST", "/api/v1/orders", body, signal);
      if (!sent.ok) {
        return sent.notSent
          ? { kind: "not-sent", cause: sent.cause }
          : { kind: "unknown", cause: sent.cause };
      }
      const { answer } = sent;
      const status = answer.statusCode;
      if (status === 200 || status === 201) {
        const json = parseJson(answer.text);
        if (!json.ok) return { kind: "unknown", cause: json.cause };
        const parsed = oifOrderResponseSchema.safeParse(json.value);
        if (!parsed.success) {
          return {
            kind: "unknown",
            cause: `accepted answer does not parse: ${parsed.error.issues[0]?.message}`,
          };
        }
        return {
          kind: "accepted",
          orderId: parsed.data.orderId,
          status: parsed.data.status,
          order: parsed.data,
        };
      }
      if (status === 401 || status === 403) return { kind: "auth-refused", httpStatus: status };
      if (status === 429)
        return { kind: "rate-limited", retryAfterSeconds: retryAfterSeconds(answer.headers) };
      if (status >= 400 && status < 500) {
        const refusal = refusalOf(answer);
        if (status === 422 && refusal.error === "SOLVER_REJECTED") {
          return { kind: "solver-rejected", message: refusal.message };
        }
        return { kind: "refused", httpStatus: status, ...refusal };
      }
      return { kind: "unknown", cause: `HTTP ${status}: ${answer.text.slice(0, 200)}` };
    },

    async getOrder(upstreamOrderId, signal) {
      const sent = await send(
        "GET",
        `/api/v1/orders/${encodeURIComponent(upstreamOrderId)}`,
        undefined,
        signal,
      );
      if (!sent.ok) return { kind: "unavailable", reason: sent.reason, cause: sent.cause };
      const { answer } = sent;
      const status = answer.statusCode;
      if (status === 200) {
        const json = parseJson(answer.text);
        if (!json.ok) return { kind: "unavailable", reason: "malformed", cause: json.cause };
        const parsed = oifOrderResponseSchema.safeParse(json.value);
        if (!parsed.success) {
          return {
            kind: "unavailable",
            reason: "malformed",
            cause: `order answer does not parse: ${parsed.error.issues[0]?.message}`,
          };
        }
        return { kind: "found", order: parsed.data };
      }
      if (status === 404) return { kind: "not-found" };
      if (status === 401 || status === 403) return { kind: "auth-refused", httpStatus: status };
      if (status === 429)
        return { kind: "rate-limited", retryAfterSeconds: retryAfterSeconds(answer.headers) };
      if (status >= 400 && status < 500) return { kind: "refused", httpStatus: status, ...refusalOf(answer) };
      return {
        kind: "unavailable",
        reason: status >= 500 ? "server-error" : "malformed",
        cause: `HTTP ${status}: ${answer.text.slice(0, 200)}`,
      };
    },

    close: () => pool.close(),
  };
}
