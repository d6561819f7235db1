import type { ServerResponse } from "node:http";
import { pathExists } from "@hub/contract";
import { preflightHeaders } from "../cors-headers.js";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";
import { refuseCall } from "./refuse-call.js";
import { sendAnswer } from "./send-answer.js";

/** Answers a CORS preflight: 204 with the preflight headers on a path the API has, else EPX0004. */
export function answerPreflight(
  state: ApiCallState,
  response: ServerResponse,
  call: CallContext,
  apiPath: string,
  origin: string | undefined,
): string {
  call.operation = "preflight";
  if (!pathExists(apiPath)) return refuseCall(response, call, "EPX0004");
  const headers = {
    ...preflightHeaders(origin, state.config.preflightMaxAgeSeconds),
    "x-request-id": call.requestId,
  };
  sendAnswer(response, call, 204, headers);
  return "preflight";
}
