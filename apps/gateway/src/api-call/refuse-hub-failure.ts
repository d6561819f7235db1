import type { ServerResponse } from "node:http";
import type { Cancellation } from "@hub/contract";
import { HubTransportError } from "../hub-transport-error.js";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";
import { refuseCall } from "./refuse-call.js";

/** A hub call that failed: EPX0052 once its deadline fired, EPX0050 unreachable, else EPX0051. */
export function refuseHubFailure(
  state: ApiCallState,
  response: ServerResponse,
  call: CallContext,
  error: unknown,
  deadline: Cancellation | undefined,
): string {
  const kind = deadline?.aborted ? "timeout" : error instanceof HubTransportError ? error.kind : "failing";
  state.logger.warn(
    { request_id: call.requestId, err: error, operation: call.operation, kind },
    "hub call failed",
  );
  return refuseCall(
    response,
    call,
    kind === "timeout" ? "EPX0052" : kind === "unreachable" ? "EPX0050" : "EPX0051",
  );
}
