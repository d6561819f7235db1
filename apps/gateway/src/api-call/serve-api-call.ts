import type { IncomingMessage, ServerResponse } from "node:http";
import { API_PREFIX } from "@hub/contract";
import { corsHeaders } from "../cors-headers.js";
import { parseCredential } from "../parse-credential.js";
import { framesBody, NO_BODY, readBody } from "../read-body.js";
import { acceptKey } from "./accept-key.js";
import { acceptProject } from "./accept-project.js";
import { answerPreflight } from "./answer-preflight.js";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";
import { forwardToHub } from "./forward-to-hub.js";
import { identifyLockedOut } from "./identify-locked-out.js";
import { isPreflight } from "./is-preflight.js";
import { countLockoutFailure, peekLockout } from "./lockout.js";
import { matchApiRoute } from "./match-api-route.js";
import { refuseCall } from "./refuse-call.js";
import { refuseLockedOut } from "./refuse-locked-out.js";
import { refuseRateLimited } from "./refuse-rate-limited.js";
import { refuseUnreadBody } from "./refuse-unread-body.js";

/**
 * Answers one /v1 call, in the spec's order (Common rule 5 and Authentication): lockout, route,
 * credential, origin, route open to the credential, body size, rate pools; then the hub. Every refusal
 * is the envelope with the catalogue's status; hub answers pass back unchanged. The store and counters
 * calls of an admitted call are awaited here, not through async stage functions, so that a call takes no
 * promise hop its checks do not need.
 */
export async function serveApiCall(
  state: ApiCallState,
  request: IncomingMessage,
  response: ServerResponse,
  call: CallContext,
): Promise<string> {
  const { config, admission } = state;
  const url = request.url ?? "/";
  const mark = url.indexOf("?");
  const path = mark === -1 ? url : url.slice(0, mark);
  const apiPath = path.slice(API_PREFIX.length);
  const headers = request.headers;
  const origin = typeof headers.origin === "string" ? headers.origin : undefined;
  if (headers["x-project-id"] !== undefined && headers["x-api-key"] === undefined) {
    Object.assign(call.headers, corsHeaders(origin));
  }
  if (isPreflight(request)) return answerPreflight(state, response, call, apiPath, origin);

  // A sliding minute: locked while the last 60 s hold 20 failures (docs/decisions/gateway.md, Lockout).
  const lockout = await peekLockout(state, call.ip);
  if (lockout.count >= config.lockoutFailures) {
    if (state.usage !== undefined) await identifyLockedOut(state, call, headers);
    return refuseLockedOut(state, response, call, lockout);
  }

  const route = matchApiRoute(request.method, apiPath);
  if (route === undefined) return refuseCall(response, call, "EPX0004");
  call.operation = route.operationId;
  call.routeKind = route.bucket ?? "read";

  if (route.access !== "public") {
    const parsed = parseCredential(headers);
    if (!parsed.ok) {
      if (parsed.counts) await countLockoutFailure(state, call.ip);
      return refuseCall(response, call, parsed.code);
    }
    if (parsed.kind === "key") {
      const check = await state.credentials.checkKey(parsed.key);
      if (!check.ok) {
        if (check.counts) await countLockoutFailure(state, call.ip);
        return refuseCall(response, call, check.code);
      }
      acceptKey(state, call, check, route);
    } else {
      const check = await state.credentials.checkProject(parsed.projectId);
      if (!check.ok) {
        await countLockoutFailure(state, call.ip);
        return refuseCall(response, call, check.code);
      }
      const refused = acceptProject(state, call, check, origin);
      if (refused !== undefined) return refuseCall(response, call, refused);
      if (route.access === "key-only") {
        await admission.take(call.headers, call.pools, route, false);
        return refuseCall(response, call, "EPX0003");
      }
    }
  }

  // Most calls (GETs) frame no body: no read, and no await, for them.
  const read = framesBody(request)
    ? await readBody(request, config.bodyLimitBytes, config.bodyReadTimeoutMs)
    : NO_BODY;
  if (!read.ok) {
    // The rest of the body is never read, so the connection cannot carry another request.
    call.headers.connection = "close";
    if (read.reason === "too-large" && call.pools.length > 0)
      await admission.take(call.headers, call.pools, route, false);
    return refuseUnreadBody(response, call, read.reason);
  }

  if (call.pools.length > 0) {
    const taken = await admission.take(call.headers, call.pools, route, true);
    if (taken.refusedBy) return refuseRateLimited(response, call, taken.refusedBy, taken.result.retryAfterMs);
  }
  const hubUrl = route.forwardsQuery && mark !== -1 ? url : path;
  return forwardToHub(state, request, response, call, route, hubUrl, read.body);
}
