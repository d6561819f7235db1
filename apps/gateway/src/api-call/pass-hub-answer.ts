import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import { type HubAnswer, hubHeaders, type RouteDefinition } from "@hub/contract";
import { isEnvelopeAnswer } from "../is-envelope-answer.js";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";
import { envelopeErrorCode } from "./envelope-error-code.js";
import { refuseCall } from "./refuse-call.js";
import { sendAnswer } from "./send-answer.js";

/** Hop-by-hop and framing headers of a hub answer; the gateway's own server sets its own. */
const DROPPED_HUB_HEADERS = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "date",
  "upgrade",
  "trailer",
  "te",
  "proxy-connection",
]);

/** Passes the hub's answer back unchanged but for its framing; an answer without the envelope is EPX0051. */
export function passHubAnswer(
  state: ApiCallState,
  response: ServerResponse,
  call: CallContext,
  route: RouteDefinition,
  answer: HubAnswer,
): string {
  if (!isEnvelopeAnswer(answer, route)) {
    state.logger.warn(
      { request_id: call.requestId, operation: call.operation, status: answer.statusCode },
      "hub answered without the envelope",
    );
    return refuseCall(response, call, "EPX0051");
  }
  const answerHeaders: OutgoingHttpHeaders = {};
  for (const name in answer.headers) {
    if (!DROPPED_HUB_HEADERS.has(name) && !name.startsWith("access-control-"))
      answerHeaders[name] = answer.headers[name];
  }
  if (answer.headers[hubHeaders.requestId] === undefined) answerHeaders["x-request-id"] = call.requestId;
  Object.assign(answerHeaders, call.headers);
  if (answer.statusCode >= 300 && state.usage !== undefined) call.answerCode = envelopeErrorCode(answer.body);
  sendAnswer(response, call, answer.statusCode, answerHeaders, answer.body);
  return answer.statusCode === 200 ? "OK" : "hub";
}
