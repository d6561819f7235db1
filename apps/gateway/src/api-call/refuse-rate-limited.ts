import type { ServerResponse } from "node:http";
import type { Pool } from "../create-pool-admission.js";
import type { CallContext } from "./call-context.js";
import { refuseCall } from "./refuse-call.js";

/** Refuses a call a rate pool refused, with the milliseconds until it admits one again. */
export function refuseRateLimited(
  response: ServerResponse,
  call: CallContext,
  refusedBy: Pool,
  retryAfterMs: number,
): string {
  return refuseCall(response, call, refusedBy.code, { params: [String(retryAfterMs)], retryAfterMs });
}
