import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import type { ApiCallHandlerDeps } from "./api-call/api-call-handler-deps.js";
import { createApiCallState } from "./api-call/api-call-state.js";
import type { CallContext } from "./api-call/call-context.js";
import { recordCall } from "./api-call/record-call.js";
import { refuseCall } from "./api-call/refuse-call.js";
import { serveApiCall } from "./api-call/serve-api-call.js";
import { clientAddress } from "./client-address.js";

export type { ApiCallHandlerDeps } from "./api-call/api-call-handler-deps.js";

/** Answers one /v1 call on Node's own request and response; the request id is the gateway's. */
export type ApiCallHandler = (
  request: IncomingMessage,
  response: ServerResponse,
  requestId: string,
) => Promise<void>;

/** Not one per call: a call's pools stay this until a credential is accepted. */
const NO_POOLS: readonly never[] = [];

/**
 * Answers one /v1 call (serveApiCall holds the spec's order of checks); a check that throws is
 * EPX0053, or EPX0051 once the hub was called; every call is then counted, measured and logged.
 */
export function createApiCallHandler(deps: ApiCallHandlerDeps): ApiCallHandler {
  const state = createApiCallState(deps);
  const { logger } = deps;

  return async function answerApiCall(request, response, requestId) {
    const started = performance.now();
    const call: CallContext = {
      requestId,
      ip: clientAddress(
        request.socket.remoteAddress ?? "unknown",
        request.headers["x-forwarded-for"],
        state.trust,
      ),
      status: 0,
      operation: "none",
      headers: {},
      reachedHub: false,
      orgId: undefined,
      credentialKind: "api_key",
      routeKind: "",
      keyUse: undefined,
      pools: NO_POOLS,
      answerCode: "",
    };
    let code: string;
    try {
      code = await serveApiCall(state, request, response, call);
    } catch (error) {
      // Everything before the hub call is the gateway's own check against the store and the counters.
      logger.error(
        { request_id: call.requestId, err: error, operation: call.operation },
        "credential or counters could not be checked",
      );
      code = response.headersSent
        ? "unknown"
        : refuseCall(response, call, call.reachedHub ? "EPX0051" : "EPX0053");
    }
    recordCall(state, call, code, started);
  };
}
