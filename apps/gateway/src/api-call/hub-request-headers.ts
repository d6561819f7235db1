import type { IncomingMessage } from "node:http";
import { hubHeaders } from "@hub/contract";
import type { ApiCallState } from "./api-call-state.js";
import type { CallContext } from "./call-context.js";

/** The headers the hub gets with a call: the gateway's own, and the few of the caller's it reads. */
export function hubRequestHeaders(
  state: ApiCallState,
  request: IncomingMessage,
  call: CallContext,
): Record<string, string> {
  const { config } = state;
  const headers: Record<string, string> = {
    [hubHeaders.requestId]: call.requestId,
    [hubHeaders.userAgent]: config.userAgent,
    [hubHeaders.acceptLanguage]: "en",
    [hubHeaders.gatewayCredential]: config.hubCredential,
    // The hub's per-IP limiter keys on the caller's address as the gateway saw it.
    [hubHeaders.clientAddress]: call.ip,
  };
  if (call.orgId !== undefined) headers[hubHeaders.organization] = call.orgId;
  const subject = request.headers[hubHeaders.subject];
  if (typeof subject === "string") headers[hubHeaders.subject] = subject;
  const contentType = request.headers[hubHeaders.contentType];
  if (contentType !== undefined) headers[hubHeaders.contentType] = contentType;
  return headers;
}
