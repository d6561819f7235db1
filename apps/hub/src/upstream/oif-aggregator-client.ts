import { z } from "zod";
import { type OifOrderResponse, oifOrderResponseSchema } from "./oif-order-response.js";
import type { OifQuoteRequest } from "./oif-quote-request.js";
import type { OifProviderConfig } from "./providers-config.js";
import {
  createUpstreamSender,
  parseJson,
  readFailureOf,
  refusalOf,
  retryAfterSeconds,
  notReadyReason,
  type UnavailableReason,
  type UpstreamCallObserver,
} from "./upstream-http.js";

export type { UnavailableReason } from "./upstream-http.js";

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
  readonly provider: OifProviderConfig;
  quote(request: OifQuoteRequest, signal?: AbortSignal): Promise<QuoteOutcome>;
  /** Forwards a signed order; `quoteResponse` is echoed verbatim (its integrity checksum included). */
  submitOrder(
    input: { quoteResponse: unknown; signature?: string },
    signal?: AbortSignal,
  ): Promise<SubmitOrderOutcome>;
  getOrder(upstreamOrderId: string, signal?: AbortSignal): Promise<GetOrderOutcome>;
  /** Readiness: GET /health (the OIF aggregator's, always 200 while it serves) answers 2xx; else why not. */
  ready(signal: AbortSignal): Promise<string | undefined>;
  close(): Promise<void>;
}

const quotesBodySchema = z.looseObject({ quotes: z.array(z.unknown()) });

/** An OIF aggregator client over one keep-alive pool, each call under the provider's timeout and the caller's signal. */
export function createOifAggregatorClient(
  provider: OifProviderConfig,
  observe?: UpstreamCallObserver,
): OifAggregatorClient {
  const { send, close } = createUpstreamSender(provider, observe);

  return {
    provider,

    async ready(signal) {
      return notReadyReason(await send("GET", "/health", undefined, signal), (status) => status < 300);
    },

    async quote(request, signal) {
      const started = performance.now();
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
        return { kind: "quotes", quotes: parsed.data.quotes, latencyMs: performance.now() - started };
      }
      const failure = readFailureOf(answer);
      // The reference answers a round in which no solver quoted with 400 AGGREGATION_ERROR.
      if (failure.kind === "refused" && failure.error === "AGGREGATION_ERROR") {
        return { ...failure, kind: "no-quotes" };
      }
      return failure;
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
      return readFailureOf(answer);
    },

    close,
  };
}
