/** A failure of the upstream HTTP client, with the code undici gives the same failure. */
export class UpstreamHttpError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "UpstreamHttpError";
  }
}

/** undici's HTTPParserError: its message names llhttp's reason, and it carries no code. */
export function parserError(reason: string): Error {
  const error = new Error(`Response does not match the HTTP/1.1 protocol (${reason})`);
  error.name = "HTTPParserError";
  return error;
}

/** undici reports any parse failure of an answer that had a Content-Length as a length mismatch. */
export function lengthMismatch(): UpstreamHttpError {
  return new UpstreamHttpError(
    "UND_ERR_RES_CONTENT_LENGTH_MISMATCH",
    "Response body length does not match content-length header",
  );
}

/** Socket errors as undici names them (`UND_ERR_SOCKET`). */
export function socketError(message: string): UpstreamHttpError {
  return new UpstreamHttpError("UND_ERR_SOCKET", message);
}

export function headersOverflow(): UpstreamHttpError {
  return new UpstreamHttpError("UND_ERR_HEADERS_OVERFLOW", "Headers Overflow Error");
}
