import type { OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { CallContext } from "./call-context.js";

/** Writes a call's answer with the headers every answer carries. */
export function sendAnswer(
  response: ServerResponse,
  call: CallContext,
  status: number,
  headers: OutgoingHttpHeaders,
  body?: Buffer,
): void {
  call.status = status;
  headers["cache-control"] = "no-store";
  headers["x-content-type-options"] = "nosniff";
  if (body !== undefined) headers["content-length"] = body.length;
  response.writeHead(status, headers);
  response.end(body);
}
