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

/** HTTP 200 with the success envelope around the handler's result. */
export function successAnswer(result: unknown, requestId: string): HubAnswer {
  if (result instanceof RawBody) return answer(200, requestId, result.contentType, result.body);
  if (result instanceof PrerenderedJson) {
    const id = JSON.stringify(requestId);
    const { head } = result;
    const idBytes = Buffer.byteLength(id, "utf8");
    const body = envelopes.take(head.length + idBytes + 1);
    body.set(head, 0);
    // An ASCII id (every id the hub issues or adopts) is written byte by byte, without a call into C++.
    if (idBytes === id.length) {
      for (let i = 0; i < idBytes; i++) body[head.length + i] = id.charCodeAt(i);
    } else {
      body.write(id, head.length, "utf8");
    }
    body[head.length + idBytes] = CLOSING_BRACE;
    return answer(200, requestId, JSON_CONTENT_TYPE, body);
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
