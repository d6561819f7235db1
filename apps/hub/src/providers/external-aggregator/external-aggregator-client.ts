import type { ExternalProviderConfig } from "./external-aggregator-config.js";
import {
  createUpstreamSender,
  notReadyReason,
  parseJson,
  readFailureOf,
  type UnavailableReason,
  type UpstreamCallObserver,
} from "../../upstream/upstream-http.js";

/** Body of an external aggregator's `POST /quote`. */
export interface ExternalQuoteRequest {
  /** CAIP-19 keys as the catalog writes them. */
  sourceAsset: string;
  destinationAsset: string;
  /** What the user pays, base units (the external aggregator quotes exact-input only). */
  amount: string;
  recipient: string;
  sourceAccount?: string;
}

/** What one quote call came to. `quote` is the upstream's answer exactly as received. */
export type ExternalQuoteOutcome =
  | { kind: "quote"; quote: unknown; latencyMs: number }
  | { kind: "no-quotes"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

/** What one read of an issued quote came to. */
export type GetExternalQuoteOutcome =
  | { kind: "found"; quote: unknown }
  | { kind: "not-found" }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

/** The hub's way to one external aggregator (POST /quote, GET /quotes/{id} under its baseUrl). */
export interface ExternalAggregatorClient {
  readonly provider: ExternalProviderConfig;
  quote(request: ExternalQuoteRequest, signal?: AbortSignal): Promise<ExternalQuoteOutcome>;
  getQuote(upstreamQuoteId: string, signal?: AbortSignal): Promise<GetExternalQuoteOutcome>;
  /** Readiness: GET of the base URL gets an HTTP answer below 500 (the API names no health route); else why not. */
  ready(signal: AbortSignal): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Refusals that say the aggregator has no offer for this request (not that the request is wrong). */
const NO_QUOTE_ERRORS = new Set(["NO_ROUTE", "INSUFFICIENT_LIQUIDITY"]);

/** A success answer's body: a JSON object, else the read is unavailable (malformed). */
function jsonObjectOf(
  text: string,
):
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; failure: { kind: "unavailable"; reason: "malformed"; cause: string } } {
  const json = parseJson(text);
  if (!json.ok)
    return { ok: false, failure: { kind: "unavailable", reason: "malformed", cause: json.cause } };
  const { value } = json;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      failure: { kind: "unavailable", reason: "malformed", cause: "answer is not a JSON object" },
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** An external aggregator client over one keep-alive pool, each call under the provider's timeout and the caller's signal. */
export function createExternalAggregatorClient(
  provider: ExternalProviderConfig,
  observe?: UpstreamCallObserver,
): ExternalAggregatorClient {
  const { send, close } = createUpstreamSender(provider, observe);

  return {
    provider,

    async ready(signal) {
      return notReadyReason(await send("GET", "/", undefined, signal), (status) => status < 500);
    },

    async quote(request, signal) {
      const started = performance.now();
      const sent = await send("POST", "/quote", request, signal);
      if (!sent.ok) return { kind: "unavailable", reason: sent.reason, cause: sent.cause };
      const { answer } = sent;
      if (answer.statusCode === 200) {
        const json = jsonObjectOf(answer.text);
        return json.ok
          ? { kind: "quote", quote: json.value, latencyMs: performance.now() - started }
          : json.failure;
      }
      const failure = readFailureOf(answer);
      if (failure.kind === "refused" && failure.error !== undefined && NO_QUOTE_ERRORS.has(failure.error)) {
        return { ...failure, kind: "no-quotes" };
      }
      return failure;
    },

    async getQuote(upstreamQuoteId, signal) {
      const sent = await send("GET", `/quotes/${encodeURIComponent(upstreamQuoteId)}`, undefined, signal);
      if (!sent.ok) return { kind: "unavailable", reason: sent.reason, cause: sent.cause };
      const { answer } = sent;
      if (answer.statusCode === 200) {
        const json = jsonObjectOf(answer.text);
        return json.ok ? { kind: "found", quote: json.value } : json.failure;
      }
      if (answer.statusCode === 404) return { kind: "not-found" };
      return readFailureOf(answer);
    },

    close,
  };
}
