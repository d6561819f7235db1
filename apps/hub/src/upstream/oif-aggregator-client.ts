import { z } from "zod";
import { type OifDialect, oifDialectTables, reportStatusOf, submissionMeaningOf } from "./oif-dialects.js";
import { type OifOrderResponse, oifOrderResponseSchema } from "./oif-order-response.js";
import type { OifQuoteRequest } from "./oif-quote-request.js";
import type { OifProviderConfig } from "./providers-config.js";
import {
  createUpstreamSender,
  notReadyReason,
  parseJson,
  readFailureOf,
  refusalOf,
  retryAfterSeconds,
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
  | { kind: "accepted"; orderId: string }
  | { kind: "solver-rejected"; message: string }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "not-sent"; cause: string }
  | { kind: "unknown"; cause: string };

/** What one order read came to; `order.status` is in the hub's report form whatever the dialect. */
export type GetOrderOutcome =
  | { kind: "found"; order: OifOrderResponse }
  | { kind: "not-found" }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

/**
 * The hub's way to one OIF upstream (POST quotes, POST orders, GET orders/{id} below the dialect's
 * path prefix). Whatever the provider's dialect, callers see one shape: quotes as QuoteResponse objects
 * with a `solverId`, order reads with `orderId` and the status in the hub's report form.
 */
export interface OifAggregatorClient {
  readonly provider: OifProviderConfig;
  quote(request: OifQuoteRequest, signal?: AbortSignal): Promise<QuoteOutcome>;
  /**
   * Forwards a signed order: the reference aggregator gets `quoteResponse` verbatim (its integrity
   * checksum included); the specification gets its `order` and `quoteId`.
   */
  submitOrder(
    input: { quoteResponse: unknown; signature?: string },
    signal?: AbortSignal,
  ): Promise<SubmitOrderOutcome>;
  getOrder(upstreamOrderId: string, signal?: AbortSignal): Promise<GetOrderOutcome>;
  /** Readiness: the dialect's probe (oifDialectTables' `probe`) answers as it should; else why not. */
  ready(signal: AbortSignal): Promise<string | undefined>;
  close(): Promise<void>;
}

const quotesBodySchema = z.looseObject({ quotes: z.array(z.unknown()) });
const specQuoteSchema = z.looseObject({ provider: z.string().optional() });
const storedQuoteSchema = z.looseObject({ order: z.unknown(), quoteId: z.string() });
const submissionAnswerSchema = z.looseObject({
  status: z.unknown(),
  orderId: z.string().min(1).optional(),
  message: z.string().optional(),
});

/** The request in the dialect's words: its spelling of the lane's scheme. */
function requestIn(dialect: OifDialect, request: OifQuoteRequest): OifQuoteRequest {
  const submission = request.intent.originSubmission;
  if (!submission?.schemes) return request;
  const schemes = oifDialectTables[dialect].schemes as Record<string, string>;
  const spelled = submission.schemes.map((scheme) => schemes[scheme] ?? scheme);
  return { ...request, intent: { ...request.intent, originSubmission: { ...submission, schemes: spelled } } };
}

/**
 * A quote as the hub reads it. The specification's Quote names no solver: its `provider` (or, without
 * one, the provider's own id) stands for it.
 */
function quoteOf(dialect: OifDialect, providerId: string, quote: unknown): unknown {
  if (dialect !== "oif-spec-1") return quote;
  const parsed = specQuoteSchema.safeParse(quote);
  if (!parsed.success) return quote;
  return { ...parsed.data, solverId: parsed.data.provider ?? providerId };
}

/** The submission body in the dialect's shape, or why it cannot be built from the stored quote. */
function submissionBody(
  dialect: OifDialect,
  input: { quoteResponse: unknown; signature?: string },
): { ok: true; body: unknown } | { ok: false; cause: string } {
  if (dialect === "oif-aggregator") {
    return {
      ok: true,
      body: {
        quoteResponse: input.quoteResponse,
        ...(input.signature === undefined ? {} : { signature: input.signature }),
      },
    };
  }
  const stored = storedQuoteSchema.safeParse(input.quoteResponse);
  if (!stored.success) return { ok: false, cause: "the stored quote has no order and quoteId" };
  // The specification requires a signature; an unsigned registration (proxy lanes) sends empty bytes.
  return {
    ok: true,
    body: { order: stored.data.order, signature: input.signature ?? "0x", quoteId: stored.data.quoteId },
  };
}

/** An order read in the hub's form: `orderId`, and the status mapped through the dialect's table. */
function orderOf(dialect: OifDialect, answer: unknown): unknown {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return answer;
  const record = answer as Record<string, unknown>;
  const orderId = record[oifDialectTables[dialect].orderIdField];
  return { ...record, orderId, status: reportStatusOf(dialect, record.status) };
}

/** An OIF upstream client over one keep-alive pool, each call under the provider's timeout and the caller's signal. */
export function createOifAggregatorClient(
  provider: OifProviderConfig,
  observe?: UpstreamCallObserver,
): OifAggregatorClient {
  const { send, close } = createUpstreamSender(provider, observe);
  const { dialect } = provider;
  const table = oifDialectTables[dialect];

  return {
    provider,

    async ready(signal) {
      const { path, readyBelow } = table.probe;
      return notReadyReason(await send("GET", path, undefined, signal), (status) => status < readyBelow);
    },

    async quote(request, signal) {
      const started = performance.now();
      const sent = await send("POST", `${table.pathPrefix}/quotes`, requestIn(dialect, request), signal);
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
        return {
          kind: "quotes",
          quotes: parsed.data.quotes.map((quote) => quoteOf(dialect, provider.id, quote)),
          latencyMs: performance.now() - started,
        };
      }
      const failure = readFailureOf(answer);
      // The reference answers a round in which no solver quoted with 400 AGGREGATION_ERROR.
      if (failure.kind === "refused" && failure.error === "AGGREGATION_ERROR") {
        return { ...failure, kind: "no-quotes" };
      }
      return failure;
    },

    async submitOrder(input, signal) {
      const built = submissionBody(dialect, input);
      if (!built.ok) return { kind: "not-sent", cause: built.cause };
      const sent = await send("POST", `${table.pathPrefix}/orders`, built.body, signal);
      if (!sent.ok) {
        return sent.notSent
          ? { kind: "not-sent", cause: sent.cause }
          : { kind: "unknown", cause: sent.cause };
      }
      const { answer } = sent;
      const status = answer.statusCode;
      if (status === 401 || status === 403) return { kind: "auth-refused", httpStatus: status };
      if (status === 429)
        return { kind: "rate-limited", retryAfterSeconds: retryAfterSeconds(answer.headers) };
      const json = parseJson(answer.text);
      const said = json.ok ? submissionAnswerSchema.safeParse(json.value) : undefined;
      const meaning = said?.success ? submissionMeaningOf(dialect, said.data.status) : undefined;
      if (status === 200 || status === 201) {
        if (meaning === "accepted" && said?.success && said.data.orderId !== undefined)
          return { kind: "accepted", orderId: said.data.orderId };
        return {
          kind: "unknown",
          cause: `accepted answer does not parse: ${answer.text.slice(0, 200)}`,
        };
      }
      if (status >= 400 && status < 500) {
        const refusal = refusalOf(answer);
        // A refusal of the order itself (reference: 422 SOLVER_REJECTED; specification: 422 rejected).
        const solverRejected =
          status === 422 && (refusal.error === "SOLVER_REJECTED" || meaning === "rejected");
        if (solverRejected) return { kind: "solver-rejected", message: refusal.message };
        // The specification's `error`: something went wrong on the way, the order may have reached.
        if (meaning === "error") return { kind: "unknown", cause: `HTTP ${status}: ${refusal.message}` };
        return { kind: "refused", httpStatus: status, ...refusal };
      }
      return { kind: "unknown", cause: `HTTP ${status}: ${answer.text.slice(0, 200)}` };
    },

    async getOrder(upstreamOrderId, signal) {
      const sent = await send(
        "GET",
        `${table.pathPrefix}/orders/${encodeURIComponent(upstreamOrderId)}`,
        undefined,
        signal,
      );
      if (!sent.ok) return { kind: "unavailable", reason: sent.reason, cause: sent.cause };
      const { answer } = sent;
      const status = answer.statusCode;
      if (status === 200) {
        const json = parseJson(answer.text);
        if (!json.ok) return { kind: "unavailable", reason: "malformed", cause: json.cause };
        const parsed = oifOrderResponseSchema.safeParse(orderOf(dialect, json.value));
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
