import { z } from "zod";
import {
  parseJson,
  readFailureOf,
  type UnavailableReason,
  type UpstreamSender,
} from "../../upstream/upstream-http.js";
import type { OifProviderConfig } from "./oif-aggregator-config.js";
import { type OifDialect, oifDialectTables } from "./oif-dialects.js";
import type { OifQuoteRequest } from "./oif-quote-request.js";

/** What one quote call came to. `quotes` are the upstream's QuoteResponse objects exactly as received. */
export type QuoteOutcome =
  | { kind: "quotes"; quotes: unknown[]; latencyMs: number }
  | { kind: "no-quotes"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

const quotesBodySchema = z.looseObject({ quotes: z.array(z.unknown()) });
const specQuoteSchema = z.looseObject({ provider: z.string().optional() });

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

/** POST quotes below the dialect's prefix: the answer's quotes in the hub's reading, or why none. */
export async function requestOifQuotes(
  send: UpstreamSender["send"],
  provider: OifProviderConfig,
  request: OifQuoteRequest,
  signal: AbortSignal | undefined,
): Promise<QuoteOutcome> {
  const { dialect } = provider;
  const table = oifDialectTables[dialect];
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
}
