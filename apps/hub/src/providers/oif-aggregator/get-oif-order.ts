import {
  parseJson,
  readFailureOf,
  type UnavailableReason,
  type UpstreamSender,
} from "../../upstream/upstream-http.js";
import type { OifProviderConfig } from "./oif-aggregator-config.js";
import { type OifDialect, oifDialectTables, reportStatusOf } from "./oif-dialects.js";
import { type OifOrderResponse, oifOrderResponseSchema } from "./oif-order-response.js";

/** What one order read came to; `order.status` is in the hub's report form whatever the dialect. */
export type GetOrderOutcome =
  | { kind: "found"; order: OifOrderResponse }
  | { kind: "not-found" }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

/** An order read in the hub's form: `orderId`, and the status mapped through the dialect's table. */
function orderOf(dialect: OifDialect, answer: unknown): unknown {
  if (typeof answer !== "object" || answer === null || Array.isArray(answer)) return answer;
  const record = answer as Record<string, unknown>;
  const orderId = record[oifDialectTables[dialect].orderIdField];
  return { ...record, orderId, status: reportStatusOf(dialect, record.status) };
}

/** GET orders/{id} below the dialect's prefix: the order in the hub's form, or why not. */
export async function getOifOrder(
  send: UpstreamSender["send"],
  provider: OifProviderConfig,
  upstreamOrderId: string,
  signal: AbortSignal | undefined,
): Promise<GetOrderOutcome> {
  const { dialect } = provider;
  const table = oifDialectTables[dialect];
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
}
