import type { IncomingMessage } from "node:http";

/** A request body as read: its bytes (undefined when the request framed none), or why it was not read. */
export type BodyRead =
  | { readonly ok: true; readonly body: Buffer | undefined }
  | { readonly ok: false; readonly reason: "too-large" | "timeout" | "aborted" };

/** What a request that frames no body (neither Content-Length nor Transfer-Encoding) reads as. */
export const NO_BODY: BodyRead = { ok: true, body: undefined };

/** True when the request frames a body; a request that frames none has nothing to wait for. */
export function framesBody(request: IncomingMessage): boolean {
  return (
    request.headers["content-length"] !== undefined || request.headers["transfer-encoding"] !== undefined
  );
}

/**
 * Reads a request body up to `limitBytes` without ever holding more: a declared length over the limit
 * is refused before reading, a chunked body as soon as it passes the limit. A body that has not ended
 * within `timeoutMs` is given up.
 */
export function readBody(request: IncomingMessage, limitBytes: number, timeoutMs: number): Promise<BodyRead> {
  const declared = request.headers["content-length"];
  const chunked = request.headers["transfer-encoding"] !== undefined;
  if (!chunked && declared === undefined) return Promise.resolve(NO_BODY);
  if (!chunked && Number(declared) > limitBytes) return Promise.resolve({ ok: false, reason: "too-large" });
  if (request.readableEnded) return Promise.resolve({ ok: true, body: Buffer.alloc(0) });

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: BodyRead) => {
      clearTimeout(timer);
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("aborted", onAborted);
      request.off("error", onAborted);
      request.off("close", onClose);
      if (!result.ok) request.pause();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) {
        finish({ ok: false, reason: "too-large" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () =>
      finish({ ok: true, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size) });
    const onAborted = () => finish({ ok: false, reason: "aborted" });
    const onClose = () => {
      if (!request.readableEnded) finish({ ok: false, reason: "aborted" });
    };
    const timer = setTimeout(() => finish({ ok: false, reason: "timeout" }), timeoutMs);
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("aborted", onAborted);
    request.on("error", onAborted);
    request.on("close", onClose);
  });
}
