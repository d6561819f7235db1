import type { HubAnswer } from "@hub/contract";
import { HubError } from "@hub/contract";
import { isStoreUnreachable } from "@hub/store";
import type { Logger } from "pino";
import { errorAnswer } from "./answer.js";
import type { InboundCall } from "./inbound-call.js";

/** The answer to a call whose operation threw, and the code it is counted under. */
export function refusalAnswer(
  logger: Pick<Logger, "warn" | "error">,
  call: InboundCall,
  error: unknown,
  requestId: string,
  operationId: string,
): [HubAnswer, string] {
  if (error instanceof HubError) return [errorAnswer(error.code, requestId, error.detail), error.code];
  if (call.cancellation?.aborted) {
    // The caller is gone (gateway timeout); nobody reads this answer, and it is no fault of the hub.
    return [errorAnswer("EIN0049", requestId, { message: "Internal error." }), "ABORTED"];
  }
  if (isStoreUnreachable(error)) {
    // PostgreSQL stopped or restarting: an availability answer the caller retries, one log line.
    const reason = error instanceof Error ? error.message : String(error);
    logger.warn({ request_id: requestId, operationId, reason }, "the database cannot be reached: EIN0050");
    return [errorAnswer("EIN0050", requestId), "EIN0050"];
  }
  logger.error({ err: error, request_id: requestId, operationId }, "unexpected failure answered EIN0049");
  return [errorAnswer("EIN0049", requestId, { message: "Internal error." }), "EIN0049"];
}
