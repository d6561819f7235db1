import type { ServerResponse } from "node:http";
import type { BodyRead } from "../read-body.js";
import type { CallContext } from "./call-context.js";
import { refuseCall } from "./refuse-call.js";

/** Refuses a call whose body was not read: EPX0005 when too large, else EPX0006 saying why. */
export function refuseUnreadBody(
  response: ServerResponse,
  call: CallContext,
  reason: Extract<BodyRead, { ok: false }>["reason"],
): string {
  if (reason === "too-large") return refuseCall(response, call, "EPX0005");
  return refuseCall(response, call, "EPX0006", {
    message:
      reason === "timeout"
        ? "Request body did not arrive within the time allowed."
        : "Request body could not be read.",
  });
}
