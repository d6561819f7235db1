import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { type ErrorCode, errorCatalogue, errorEnvelope, newRequestId } from "@hub/contract";
import { JSON_CONTENT_TYPE } from "./json-content-type.js";

/** An envelope written straight to a socket, then closed; a HEAD gets the head only. */
export function endWithEnvelope(socket: Duplex, code: ErrorCode, head: boolean, message?: string): void {
  const requestId = newRequestId();
  const { status } = errorCatalogue[code];
  const body = JSON.stringify(errorEnvelope(code, requestId, message === undefined ? {} : { message }));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `Content-Type: ${JSON_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      "Cache-Control: no-store\r\n" +
      "X-Content-Type-Options: nosniff\r\n" +
      "Connection: close\r\n\r\n" +
      (head ? "" : body),
  );
}
