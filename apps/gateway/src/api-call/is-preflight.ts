import type { IncomingMessage } from "node:http";

/** A CORS preflight: an OPTIONS that asks which method it may send. */
export function isPreflight(request: IncomingMessage): boolean {
  return request.method === "OPTIONS" && request.headers["access-control-request-method"] !== undefined;
}
