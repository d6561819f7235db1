import { z } from "zod";
import {
  refusalOf,
  retryAfterSeconds,
  parseJson,
  type UpstreamSender,
} from "../../upstream/upstream-http.js";
import type { SubmitOrderOutcome } from "../provider-kind.js";
import type { OifProviderConfig } from "./oif-aggregator-config.js";
import { type OifDialect, oifDialectTables, submissionMeaningOf } from "./oif-dialects.js";

const storedQuoteSchema = z.looseObject({ order: z.unknown(), quoteId: z.string() });
const submissionAnswerSchema = z.looseObject({
  status: z.unknown(),
  orderId: z.string().min(1).optional(),
  message: z.string().optional(),
});

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

/** POST orders below the dialect's prefix: the signed order forwarded, and what the answer means. */
export async function submitOifOrder(
  send: UpstreamSender["send"],
  provider: OifProviderConfig,
  input: { quoteResponse: unknown; signature?: string },
  signal: AbortSignal | undefined,
): Promise<SubmitOrderOutcome> {
  const { dialect } = provider;
  const table = oifDialectTables[dialect];
  const built = submissionBody(dialect, input);
  if (!built.ok) return { kind: "not-sent", cause: built.cause };
  const sent = await send("POST", `${table.pathPrefix}/orders`, built.body, signal);
  if (!sent.ok) {
    return sent.notSent ? { kind: "not-sent", cause: sent.cause } : { kind: "unknown", cause: sent.cause };
  }
  const { answer } = sent;
  const status = answer.statusCode;
  if (status === 401 || status === 403) return { kind: "auth-refused", httpStatus: status };
  if (status === 429) return { kind: "rate-limited", retryAfterSeconds: retryAfterSeconds(answer.headers) };
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
    const solverRejected = status === 422 && (refusal.error === "SOLVER_REJECTED" || meaning === "rejected");
    if (solverRejected) return { kind: "solver-rejected", message: refusal.message };
    // The specification's `error`: something went wrong on the way, the order may have reached.
    if (meaning === "error") return { kind: "unknown", cause: `HTTP ${status}: ${refusal.message}` };
    return { kind: "refused", httpStatus: status, ...refusal };
  }
  return { kind: "unknown", cause: `HTTP ${status}: ${answer.text.slice(0, 200)}` };
}
