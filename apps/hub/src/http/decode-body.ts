import { HubError } from "@hub/contract";

const NOT_A_JSON_BODY = {
  reference: "body",
  message: "The body must be a JSON object sent with Content-Type application/json.",
};

/** A media type of application/json, any case, parameters allowed. */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  const semicolon = contentType.indexOf(";");
  const mediaType = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim();
  return mediaType.length === 16 && mediaType.toLowerCase() === "application/json";
}

/**
 * Spec common rules 6–8 on a GET: a body with a JSON Content-Type is refused (EMC0005); any other body
 * is ignored and the GET served. `body` is what was read: empty when none came or it was over the limit.
 */
export function checkGetBody(contentType: string | undefined, body: Buffer | undefined): void {
  if (body !== undefined && body.length > 0 && isJsonContentType(contentType)) {
    throw new HubError("EMC0005", { message: "A GET request carries no body." });
  }
}

/**
 * Spec common rules 6–8 on a route that reads a body; returns the parsed JSON value.
 * Empty (or over the limit, which reads as empty): EMC0005 when the Content-Type is exactly
 * `application/json`, else the route answers EIN0001 `body`. Not JSON: EIN0001 `body`.
 * Malformed JSON: EMC0028 `Body`.
 */
export function decodeJsonBody(contentType: string | undefined, body: Buffer | undefined): unknown {
  if (body === undefined || body.length === 0) {
    if (contentType === "application/json") {
      throw new HubError("EMC0005", { message: "A POST request needs a JSON object body." });
    }
    throw new HubError("EIN0001", NOT_A_JSON_BODY);
  }
  if (!isJsonContentType(contentType)) throw new HubError("EIN0001", NOT_A_JSON_BODY);
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new HubError("EMC0028", { reference: "Body", message: "The body is not well-formed JSON." });
  }
}
