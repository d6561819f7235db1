import type { ServerResponse } from "node:http";
import type { SlidingCount } from "@hub/counters";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";
import { refuseCall } from "./refuse-call.js";

/** Refuses a call from a locked-out address (EPX0081), with the time until its lockout lifts. */
export function refuseLockedOut(
  state: ApiCallState,
  response: ServerResponse,
  call: CallContext,
  lockout: SlidingCount,
): string {
  return refuseCall(response, call, "EPX0081", { retryAfterMs: lockout.belowLimitAtMs - state.clock.now() });
}
