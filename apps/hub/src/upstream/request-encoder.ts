import { UpstreamHttpError } from "./upstream-answer-parser.js";

const PATH = /^\/[\u0021-\u00ff]*$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;

/** A request as one write: its head and its JSON body. */
export type RequestEncoder = (method: "GET" | "POST", path: string, body: unknown) => Buffer | string;

/** The request's header lines after its request line and host, or why they cannot be sent. */
function headerLines(headers: Record<string, string>): string {
  let lines = "connection: keep-alive\r\n";
  for (const name in headers) {
    const value = headers[name]!;
    if (!TOKEN.test(name) || !HEADER_VALUE.test(value)) {
      throw new UpstreamHttpError("UND_ERR_INVALID_ARG", `invalid ${name} header`);
    }
    lines += `${name}: ${value}\r\n`;
  }
  return lines;
}

/**
 * The encoder of one upstream's requests: its host and headers (checked once; an invalid one fails
 * every call), the request line and the body with its length.
 */
export function createRequestEncoder(host: string, headers: Record<string, string>): RequestEncoder {
  const sharedHeaders: Record<string, string> = {
    accept: "application/json",
    "user-agent": "intent-hub/0.1",
    ...headers,
  };
  const postHeaders: Record<string, string> = { ...sharedHeaders, "content-type": "application/json" };
  const hostLine = `host: ${host}\r\n`;
  let getLines: string | UpstreamHttpError;
  let postLines: string | UpstreamHttpError;
  try {
    getLines = hostLine + headerLines(sharedHeaders);
    postLines = hostLine + headerLines(postHeaders);
  } catch (error) {
    getLines = postLines = error as UpstreamHttpError;
  }
  return (method, path, body) => {
    if (!PATH.test(path)) throw new UpstreamHttpError("UND_ERR_INVALID_ARG", "invalid request path");
    const lines = body === undefined ? getLines : postLines;
    if (typeof lines !== "string") throw lines;
    const head = `${method} ${path} HTTP/1.1\r\n${lines}`;
    if (body === undefined) return method === "POST" ? `${head}content-length: 0\r\n\r\n` : `${head}\r\n`;
    const text = JSON.stringify(body);
    const length = Buffer.byteLength(text);
    const withLength = `${head}content-length: ${length}\r\n\r\n`;
    const bytes = Buffer.allocUnsafe(withLength.length + length);
    bytes.write(withLength, 0, "latin1");
    bytes.write(text, withLength.length, "utf8");
    return bytes;
  };
}
