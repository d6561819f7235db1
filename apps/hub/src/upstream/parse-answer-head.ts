import { headersOverflow, lengthMismatch, parserError, socketError } from "./upstream-http-errors.js";

/** undici's default: the http module's maxHeaderSize, counted over header names and values. */
export const MAX_HEADER_BYTES = 16 * 1024;
const STATUS_LINE = /^HTTP\/(\d)\.(\d) (\d{3})(?: .*)?$/;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FIELD_VALUE = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;

/** An upstream's answer headers: names lower-cased, a repeated header's values in an array. */
export type AnswerHeaders = Record<string, string | string[] | undefined>;

/** A final answer's head: its status, its headers, and the fields that frame its body. */
export interface AnswerHead {
  statusCode: number;
  /** HTTP/1.1 or later: the connection persists unless it says close. */
  persistsByDefault: boolean;
  headers: AnswerHeaders;
  rawHeaders: string[];
  /** The Connection header's tokens, lower-cased. */
  connection: string;
  keepAliveValue: string;
  contentLength: string | undefined;
  transferEncoding: string | undefined;
}

type HeaderFields = Omit<AnswerHead, "statusCode" | "persistsByDefault">;

export /** Checks a header or trailer line (`name: value`, no folding) and returns its colon's index. */
function checkFieldLine(line: string): number {
  if (line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9) {
    throw parserError("Unexpected whitespace after header value");
  }
  const colon = line.indexOf(":");
  if (colon <= 0 || !TOKEN.test(line.slice(0, colon))) {
    throw parserError("Invalid header token");
  }
  if (!FIELD_VALUE.test(line.slice(colon + 1))) {
    throw parserError("Invalid header value char");
  }
  return colon;
}

/** The header lines after the status line, checked as llhttp does, and their values as undici keeps them. */
function readHeaderFields(head: string, from: number): HeaderFields {
  let start = from;
  const headers: AnswerHeaders = {};
  const rawHeaders: string[] = [];
  let headerBytes = 0;
  let connection = "";
  let keepAliveValue = "";
  let contentLength: string | undefined;
  let transferEncoding: string | undefined;
  while (start < head.length) {
    let end = head.indexOf("\r\n", start);
    if (end === -1) end = head.length;
    const line = head.slice(start, end);
    start = end + 2;
    const colon = checkFieldLine(line);
    const name = line.slice(0, colon).toLowerCase();
    // llhttp drops the whitespace before a value, not after it, and undici keeps what it gives.
    const value = line.slice(colon + 1).replace(/^[ \t]+/, "");
    headerBytes += colon + value.length;
    if (headerBytes >= MAX_HEADER_BYTES) throw headersOverflow();
    rawHeaders.push(line.slice(0, colon), value);
    if (name === "connection") connection += value;
    else if (name === "keep-alive") keepAliveValue += value;
    else if (name === "content-length") {
      // Any of these is llhttp's error, which undici reports as a length mismatch.
      if (contentLength !== undefined || !/^\d{1,15}[ \t]*$/.test(value)) throw lengthMismatch();
      contentLength = value;
    } else if (name === "transfer-encoding") {
      transferEncoding = transferEncoding === undefined ? value : `${transferEncoding}, ${value}`;
    }
    const existing = Object.hasOwn(headers, name) ? headers[name] : undefined;
    if (existing === undefined) {
      if (name === "__proto__") {
        Object.defineProperty(headers, name, {
          value,
          enumerable: true,
          configurable: true,
          writable: true,
        });
      } else headers[name] = value;
    } else if (typeof existing === "string") headers[name] = [existing, value];
    else existing.push(value);
  }
  return {
    headers,
    rawHeaders,
    connection: connection.toLowerCase(),
    keepAliveValue,
    contentLength,
    transferEncoding,
  };
}

/** The head of an answer, or undefined for an informational one (102, 103): the real one follows. */
export function parseAnswerHead(head: string): AnswerHead | undefined {
  let lineEnd = head.indexOf("\r\n");
  if (lineEnd === -1) lineEnd = head.length;
  const statusLine = head.slice(0, lineEnd);
  const status = STATUS_LINE.exec(statusLine);
  if (status === null) {
    if (!statusLine.startsWith("HTTP/")) throw parserError("Expected HTTP/, RTSP/ or ICE/");
    if (statusLine.includes("\n")) throw parserError("Missing expected CR after response line");
    throw parserError("Invalid response status");
  }
  const code = Number(status[3]);
  if (code < 100) throw parserError("Invalid response status");
  const fields = readHeaderFields(head, lineEnd + 2);
  if (fields.contentLength !== undefined && fields.transferEncoding !== undefined) throw lengthMismatch();
  if (code === 100) throw socketError("bad response");
  if (code === 101) throw socketError("bad upgrade");
  if (code < 200) return undefined;
  return { statusCode: code, persistsByDefault: status[1] !== "0" && status[2] !== "0", ...fields };
}
