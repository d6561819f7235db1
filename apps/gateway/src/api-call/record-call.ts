import { performance } from "node:perf_hooks";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";

/** Counts an answered call in its organization's usage and the metrics, and logs it. */
export function recordCall(state: ApiCallState, call: CallContext, code: string, started: number): void {
  const { usage, logger } = state;
  if (usage !== undefined && call.orgId !== undefined) {
    usage.count(
      call.orgId,
      call.credentialKind,
      call.routeKind,
      code === "unknown" ? "unknown" : call.answerCode,
      call.keyUse,
    );
  }
  const ms = performance.now() - started;
  state.metrics.observe(call.operation, code, call.status, ms / 1000);
  // Every refusal of the gateway's own is logged at info; passed-through answers only at debug, since a
  // line per call costs a quarter of the gateway's time and /metrics counts them.
  const level = code === "OK" || code === "hub" || code === "preflight" ? "debug" : "info";
  if (logger.isLevelEnabled(level)) {
    logger[level](
      { request_id: call.requestId, operation: call.operation, code, status: call.status, ms },
      "answered",
    );
  }
}
