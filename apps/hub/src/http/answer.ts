import {
  type ErrorCode,
  type ErrorDetail,
  errorCatalogue,
  errorEnvelope,
  type HubAnswer,
  successEnvelope,
} from "@hub/contract";
import { BufferSlab } from "@hub/http-client";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Data already serialized (the catalog, a quote's winner): the envelope up to the request id, ready. */
export class PrerenderedJson {
  readonly head: Buffer;
  constructor(json: string) {
    // Same bytes as JSON.stringify(successEnvelope(...)): success, data, request_id in that order.
    this.head = Buffer.from(`{"success":true,"data":${json},"request_id":`, "utf8");
  }
}

const CLOSING_BRACE = 0x7d;

/** Where prerendered envelopes are written: pieces of a shared slab, not one allocation each. */
const envelopes = new BufferSlab();

/** A success answer that is not an envelope (the OpenAPI document). */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly body: Buffer,
  ) {}
}

function answer(statusCode: number, requestId: string, contentType: string, body: Buffer): HubAnswer {
  return {
    statusCode,
    headers: {
      "content-type": contentType,
      "x-request-id": requestId,
      "content-length": String(body.length),
    },
    body,
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** True when JSON writes the id as its own characters between quotes: printable ASCII, no quote, no backslash. */
function isPlainJsonString(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === QUOTE || code === BACKSLASH) return false;
  }
  return true;
}

/** The prerendered envelope with the request id and the closing brace spliced in, cut from the slab. */
function renderPrerendered({ head }: PrerenderedJson, requestId: string): Buffer {
  // Every id the hub issues or adopts in practice is plain: written byte by byte, with no JSON.stringify.
  if (isPlainJsonString(requestId)) {
    const body = envelopes.take(head.length + requestId.length + 3);
    body.set(head, 0);
    let at = head.length;
    body[at++] = QUOTE;
    for (let i = 0; i < requestId.length; i++) body[at++] = requestId.charCodeAt(i);
    body[at++] = QUOTE;
    body[at] = CLOSING_BRACE;
    return body;
  }
  const id = JSON.stringify(requestId);
  const idBytes = Buffer.byteLength(id, "utf8");
  const body = envelopes.take(head.length + idBytes + 1);
  body.set(head, 0);
  body.write(id, head.length, "utf8");
  body[head.length + idBytes] = CLOSING_BRACE;
  return body;
}

/** HTTP 200 with the success envelope around the handler's result. */
export function successAnswer(result: unknown, requestId: string): HubAnswer {
  if (result instanceof RawBody) return answer(200, requestId, result.contentType, result.body);
  if (result instanceof PrerenderedJson) {
    return answer(200, requestId, JSON_CONTENT_TYPE, renderPrerendered(result, requestId));
  }
  const text = JSON.stringify(successEnvelope(result, requestId));
  return answer(200, requestId, JSON_CONTENT_TYPE, Buffer.from(text, "utf8"));
}

/**
 * A failure envelope with the catalogue's status: 400 for every code of the hub's own, 404 for EPX0004
 * (no such route). The header always names the call, even when the body leaves request_id out.
 */
export function errorAnswer(
  code: ErrorCode,
  requestId: string,
  detail: ErrorDetail = {},
  options: { bodyRequestId?: boolean } = {},
): HubAnswer {
  const envelope = errorEnvelope(code, options.bodyRequestId === false ? undefined : requestId, detail);
  return answer(
    errorCatalogue[code].status,
    requestId,
    JSON_CONTENT_TYPE,
    Buffer.from(JSON.stringify(envelope), "utf8"),
  );
}
