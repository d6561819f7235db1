import { copyOf, type FramingRules, ResponseFraming } from "@hub/http-client";
import {
  type AnswerHeaders,
  checkFieldLine,
  MAX_HEADER_BYTES,
  parseAnswerHead,
} from "./parse-answer-head.js";
import { headersOverflow, lengthMismatch, parserError, socketError } from "./upstream-http-errors.js";

export type { AnswerHeaders } from "./parse-answer-head.js";
export { socketError, UpstreamHttpError } from "./upstream-http-errors.js";

/** An answer whose body is over the client's bound: a malformed answer, not a transport failure. */
export class AnswerTooLarge extends Error {
  constructor(maxBytes: number) {
    super(`upstream answer over ${maxBytes} bytes`);
    this.name = "AnswerTooLarge";
  }
}

/** One answer read off a connection, and whether that connection may carry the next call. */
export interface ParsedAnswer {
  readonly statusCode: number;
  readonly headers: AnswerHeaders;
  /** The header lines, names and values alternating, as the upstream diagnostics channel publishes them. */
  readonly rawHeaders: readonly string[];
  /** The body decoded as UTF-8. */
  readonly text: string;
  readonly keepAlive: boolean;
  /** The upstream's `keep-alive: timeout=N` in ms, when it sent one. */
  readonly keepAliveHintMs: number | undefined;
}

/** Bytes of a head (status line, header lines, line ends) held while waiting for its end. */
const MAX_RAW_HEAD_BYTES = 4 * MAX_HEADER_BYTES + 8 * 1024;
const MAX_CHUNK_LINE_BYTES = 4 * 1024;
const CHUNK_SIZE = /^([0-9a-fA-F]{1,13})(?:;[\t\u0020-\u007e\u0080-\u00ff]*)?$/;
const KEEP_ALIVE_TIMEOUT = /timeout=(\d+)/;

/** undici's framing rules: llhttp's strict head and chunk checks, with undici's errors. */
const UNDICI_RULES: FramingRules = {
  maxHeadBytes: MAX_RAW_HEAD_BYTES,
  maxChunkLineBytes: MAX_CHUNK_LINE_BYTES,
  headTooLarge: headersOverflow,
  chunkLineTooLong: () => parserError("Chunk line too long"),
  noCrlfAfterChunk: () => parserError("Expected LF after chunk data"),
  chunkSize(line) {
    const size = CHUNK_SIZE.exec(line);
    if (size === null) throw parserError("Invalid character in chunk size");
    const bytes = Number.parseInt(size[1]!, 16);
    if (bytes > Number.MAX_SAFE_INTEGER) throw parserError("Chunk size overflow");
    return bytes;
  },
  trailer: checkFieldLine,
  partialHead: checkLineEnds,
};

/** Told once a final answer's head is read: its status and header lines (names and values alternating). */
export type AnswerHeadListener = (statusCode: number, rawHeaders: readonly string[]) => void;

/**
 * Reads one HTTP/1.1 answer to a GET or POST as its bytes arrive, with the framing rules of undici's
 * parser (llhttp, strict): status line and headers, a Content-Length, chunked or read-to-close body,
 * informational answers skipped (100 and 101 refused as undici does). Throws on anything else. The body
 * is kept as ranges of the read and copied only when the answer does not end in it.
 */
export class UpstreamAnswerParser extends ResponseFraming<ParsedAnswer> {
  private statusCode = 0;
  private headers: AnswerHeaders = {};
  private rawHeaders: string[] = [];
  private keepAliveHintMs: number | undefined;
  /** Body bytes already copied out of earlier reads. */
  private chunks: Buffer[] = [];
  /** Body ranges of the bytes being parsed now, copied only if the answer does not end in them. */
  private readonly pieces: number[] = [];
  private size = 0;

  /** `onHead` is told after the `push` that read the final head, unless that `push` threw. */
  constructor(
    private readonly maxBodyBytes: number,
    private onHead?: AnswerHeadListener,
  ) {
    super(UNDICI_RULES);
  }

  /** Tells `onHead` once a final head is read: at the end of the `push` that read it (held or answer). */
  private announce(): void {
    const onHead = this.onHead;
    if (onHead === undefined || this.statusCode === 0) return;
    this.onHead = undefined;
    onHead(this.statusCode, this.rawHeaders);
  }

  /** The error undici gives for a connection closed before or inside an answer (a body cut short of its Content-Length). */
  cutShort(): Error {
    if (this.statusCode !== 0 && !this.keepAlive) {
      if (this.stage === "length") {
        return lengthMismatch();
      }
      return parserError("Invalid EOF state");
    }
    return socketError("other side closed");
  }

  protected keep(_bytes: Buffer, start: number, end: number): void {
    const length = end - start;
    if (this.size + length > this.maxBodyBytes) throw new AnswerTooLarge(this.maxBodyBytes);
    this.pieces.push(start, end);
    this.size += length;
  }

  protected override held(bytes: Buffer): undefined {
    const { pieces } = this;
    for (let i = 0; i < pieces.length; i += 2) this.chunks.push(copyOf(bytes, pieces[i]!, pieces[i + 1]!));
    pieces.length = 0;
    this.announce();
    return undefined;
  }

  /** The body as text: decoded straight from the read when it all came in one, else gathered first. */
  private text(current: Buffer | undefined): string {
    const { chunks, pieces } = this;
    if (chunks.length === 0 && pieces.length === 0) return "";
    if (chunks.length === 0 && pieces.length === 2) return current!.toString("utf8", pieces[0], pieces[1]);
    if (chunks.length === 1 && pieces.length === 0) return chunks[0]!.toString("utf8");
    const body = Buffer.allocUnsafe(this.size);
    let at = 0;
    for (const chunk of chunks) at += chunk.copy(body, at);
    for (let i = 0; i < pieces.length; i += 2) at += current!.copy(body, at, pieces[i], pieces[i + 1]);
    return body.toString("utf8");
  }

  protected answer(bytes: Buffer | undefined): ParsedAnswer {
    const text = this.text(bytes);
    this.chunks = [];
    this.pieces.length = 0;
    this.announce();
    return {
      statusCode: this.statusCode,
      headers: this.headers,
      rawHeaders: this.rawHeaders,
      text,
      keepAlive: this.keepAlive,
      keepAliveHintMs: this.keepAliveHintMs,
    };
  }

  protected readHead(text: string): void {
    const head = parseAnswerHead(text);
    // Another informational answer (102, 103) is not the answer; the real one follows.
    if (head === undefined) return;
    const { statusCode: code, contentLength, transferEncoding } = head;
    this.statusCode = code;
    this.headers = head.headers;
    this.rawHeaders = head.rawHeaders;
    this.keepAlive = head.persistsByDefault
      ? !/(?:^|,)\s*close\s*(?:,|$)/.test(head.connection)
      : /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(head.connection);
    const hint = KEEP_ALIVE_TIMEOUT.exec(head.keepAliveValue);
    if (hint !== null) this.keepAliveHintMs = Number.parseInt(hint[1]!, 10) * 1000;
    if (code === 204 || code === 304) {
      // No body; undici still holds a non-zero Content-Length against the none it read.
      if (contentLength !== undefined && Number(contentLength) !== 0) throw lengthMismatch();
      this.stage = "done";
      return;
    }
    if (transferEncoding !== undefined) {
      // A body framed by a coding other than a final chunked runs to the close.
      if (/(?:^|,)[ \t]*chunked[ \t]*$/i.test(transferEncoding)) this.stage = "chunkSize";
      else {
        this.stage = "untilClose";
        this.keepAlive = false;
      }
      return;
    }
    if (contentLength === undefined) {
      this.stage = "untilClose";
      this.keepAlive = false;
      return;
    }
    this.remaining = Number(contentLength);
    this.stage = this.remaining === 0 ? "done" : "length";
  }
}

/** A head still arriving may not end its lines with a bare LF (llhttp's strict mode). */
function checkLineEnds(bytes: Buffer, offset: number): void {
  for (let at = bytes.indexOf(10, offset); at !== -1; at = bytes.indexOf(10, at + 1)) {
    if (at === offset || bytes[at - 1] !== 13) throw parserError("Missing expected CR after response line");
  }
}
