import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { type ErrorCode, errorCatalogue, errorEnvelope } from "@hub/contract";
import type { CallContext } from "./call-context.js";
import { sendAnswer } from "./send-answer.js";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Answers a call with the envelope of a refusal of the gateway's own; returns its code. */
export function refuseCall(
  response: ServerResponse,
  call: CallContext,
  code: ErrorCode,
  extra: { params?: string[]; retryAfterMs?: number; message?: string } = {},
): string {
  const envelope = errorEnvelope(code, call.requestId, { params: extra.params, message: extra.message });
  const headers: OutgoingHttpHeaders = {
    ...call.headers,
    "x-request-id": call.requestId,
    "content-type": JSON_CONTENT_TYPE,
  };
  if (extra.retryAfterMs !== undefined) {
    headers["retry-after"] = String(Math.max(1, Math.ceil(extra.retryAfterMs / 1000)));
  }
  call.answerCode = code;
  sendAnswer(response, call, errorCatalogue[code].status, headers, Buffer.from(JSON.stringify(envelope)));
  return code;
}
