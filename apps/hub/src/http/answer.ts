import {
  type ErrorCode,
  type ErrorDetail,
  type HubAnswer,
  errorCatalogue,
  errorEnvelope,
  successEnvelope,
} from "@hub/contract";

const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Data already serialized to JSON once (the catalog): spliced into the envelope as is. */
export class PrerenderedJson {
  constructor(readonly json: string) {}
}

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
  // Same bytes as JSON.stringify(successEnvelope(...)): success, data, request_id in that order.
  const text =
    result instanceof PrerenderedJson
      ? `{"success":true,"data":${result.json},"request_id":${JSON.stringify(requestId)}}`
      : JSON.stringify(successEnvelope(result, requestId));
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
