import type { IncomingMessage, ServerResponse } from "node:http";
import type { Cancellation, HubAnswer, RouteMatch } from "@hub/contract";
import { TIMED_OUT } from "../create-deadlines.js";
import { HubTransportError } from "../hub-transport-error.js";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";
import { hubRequestHeaders } from "./hub-request-headers.js";
import { passHubAnswer } from "./pass-hub-answer.js";
import { refuseHubFailure } from "./refuse-hub-failure.js";

/** Sends an admitted call to the hub and answers with the hub's answer, or the failure's code. */
export async function forwardToHub(
  state: ApiCallState,
  request: IncomingMessage,
  response: ServerResponse,
  call: CallContext,
  matched: RouteMatch,
  url: string,
  body: Buffer | undefined,
): Promise<string> {
  const { config, transport } = state;
  const { route } = matched;
  const headers = hubRequestHeaders(state, request, call);
  // Only the gateway's own timeout ends the hub call: a client that disconnects does not cancel a
  // submission. The deadline is both aborted (the hub cancels) and ends the wait, so a hub or a
  // transport that ignores it still answers EPX0052 on time.
  const timeoutMs = route.timeoutClass === "quote" ? config.quoteTimeoutMs : config.timeoutMs;
  call.reachedHub = true;
  let deadline: Cancellation | undefined;
  let answer: HubAnswer;
  try {
    const first = await state.deadlines.race(timeoutMs, (callDeadline) => {
      deadline = callDeadline;
      const method = request.method ?? "GET";
      return transport.send({ method, url, headers, body, deadline: callDeadline, route: matched });
    });
    if (first === TIMED_OUT) throw new HubTransportError("timeout", "the gateway's timeout fired");
    answer = first;
  } catch (error) {
    return refuseHubFailure(state, response, call, error, deadline);
  }
  return passHubAnswer(state, response, call, route, answer);
}
