import type { HubAnswer } from "@hub/contract";
import { BufferSlab, copyOf, type FramingRules, ResponseFraming } from "@hub/http-client";

/** A hub answer read off a keep-alive connection, and whether that connection may carry the next call. */
export interface ParsedHubAnswer {
  readonly answer: HubAnswer;
  readonly keepAlive: boolean;
  /** The hub's `keep-alive: timeout=N`, in ms, when it sent one. */
  readonly keepAliveHintMs: number | undefined;
}

/** The largest status line and headers accepted, as Node's own parser (`--max-http-header-size`). */
const MAX_HEAD_BYTES = 16 * 1024;
const MAX_CHUNK_LINE_BYTES = 4 * 1024;
/** Bodies up to this length get their buffer up front; a larger Content-Length is believed as it arrives. */
const MAX_SIZED_BODY_BYTES = 1024 * 1024;
const EMPTY = Buffer.alloc(0);
/** Where sized answer bodies are kept: pieces of a shared slab, not one allocation each. */
const bodies = new BufferSlab();

/** `text` from `start` to `end` without the spaces and tabs around it (only those: other bytes are the value's). */
function trimmed(text: string, start: number, end: number): string {
  let from = start;
  let to = end;
  while (from < to && (text.charCodeAt(from) === 32 || text.charCodeAt(from) === 9)) from++;
  while (to > from && (text.charCodeAt(to - 1) === 32 || text.charCodeAt(to - 1) === 9)) to--;
  return text.slice(from, to);
}

/**
 * The names a hub answer carries, lower-cased, as constants: a header named one of them (in any case)
 * gets this string instead of a new one, which the answer's object and the gateway's lookups would
 * each have to hash again.
 */
const KNOWN_NAMES = [
  "content-type",
  "content-length",
  "x-request-id",
  "date",
  "connection",
  "keep-alive",
  "cache-control",
  "transfer-encoding",
  "vary",
  "retry-after",
];

/** The lower-cased name `text` holds from `start` to `end`: a known name's constant, else a new string. */
function headerName(text: string, start: number, end: number): string {
  const length = end - start;
  for (const known of KNOWN_NAMES) {
    if (known.length !== length) continue;
    let i = 0;
    while (i < length) {
      const c = text.charCodeAt(start + i);
      const k = known.charCodeAt(i);
      if (c !== k && !(c >= 65 && c <= 90 && c + 32 === k)) break;
      i++;
    }
    if (i === length) return known;
  }
  return text.slice(start, end).toLowerCase();
}

/** The gateway's framing rules: Node's own head limit, its own error texts, trailers skipped. */
const HUB_ANSWER_RULES: FramingRules = {
  maxHeadBytes: MAX_HEAD_BYTES,
  maxChunkLineBytes: MAX_CHUNK_LINE_BYTES,
  headTooLarge: () => new Error("the hub's answer head is too large"),
  chunkLineTooLong: () => new Error("a chunk line of the hub's answer is too long"),
  noCrlfAfterChunk: () => new Error("a chunk of the hub's answer has no CRLF"),
  chunkSize(line) {
    const semicolon = line.indexOf(";");
    const digits = (semicolon === -1 ? line : line.slice(0, semicolon)).trim();
    if (!/^[0-9a-fA-F]{1,8}$/.test(digits)) throw new Error("a chunk size of the hub's answer is not hex");
    return Number.parseInt(digits, 16);
  },
};

/**
 * Reads one hub answer from the bytes of a connection as they arrive: status line and headers, then a
 * body framed by Content-Length, by chunked coding or by the close; informational (1xx) answers are
 * skipped. Throws on bytes that are not such an answer. The body is copied as it arrives.
 */
export class HubAnswerParser extends ResponseFraming<ParsedHubAnswer> {
  private statusCode = 0;
  private headers: Record<string, string> = {};
  private keepAliveHintMs: number | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  /** The body when its length is known: filled in place as the bytes arrive. */
  private sized: Buffer | undefined;

  /** `method` is the call's: an answer to HEAD has no body whatever its headers say. */
  constructor(private readonly method: string) {
    super(HUB_ANSWER_RULES);
  }

  cutShort(): Error {
    return new Error("the hub closed the connection before its answer ended");
  }

  protected keep(bytes: Buffer, start: number, end: number): void {
    if (this.sized !== undefined) bytes.copy(this.sized, this.size, start, end);
    else this.chunks.push(copyOf(bytes, start, end));
    this.size += end - start;
  }

  protected answer(): ParsedHubAnswer {
    const { chunks, size } = this;
    const [first] = chunks;
    const body =
      this.sized ?? (first === undefined ? EMPTY : chunks.length === 1 ? first : Buffer.concat(chunks, size));
    return {
      answer: { statusCode: this.statusCode, headers: this.headers, body },
      keepAlive: this.keepAlive,
      keepAliveHintMs: this.keepAliveHintMs,
    };
  }

  protected readHead(head: string): void {
    const statusEnd = head.indexOf("\r\n");
    const status = statusEnd === -1 ? head : head.slice(0, statusEnd);
    const code = Number(status.slice(9, 12));
    if (
      !status.startsWith("HTTP/1.") ||
      (status[7] !== "0" && status[7] !== "1") ||
      status[8] !== " " ||
      !/^[1-9]\d\d$/.test(status.slice(9, 12)) ||
      (status.length > 12 && status[12] !== " ")
    ) {
      throw new Error("the hub's answer has no HTTP/1.x status line");
    }
    const headers: Record<string, string> = {};
    let at = statusEnd === -1 ? head.length : statusEnd + 2;
    while (at < head.length) {
      let lineEnd = head.indexOf("\r\n", at);
      if (lineEnd === -1) lineEnd = head.length;
      const colon = head.indexOf(":", at);
      const first = head.charCodeAt(at);
      if (colon === -1 || colon >= lineEnd || colon === at || first === 32 || first === 9) {
        throw new Error("the hub's answer has a malformed header line");
      }
      const name = headerName(head, at, colon);
      const value = trimmed(head, colon + 1, lineEnd);
      headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
      at = lineEnd + 2;
    }
    // An informational answer (1xx) is not the answer; the real one follows on the same connection.
    if (code < 200) return;
    this.statusCode = code;
    this.headers = headers;
    const connection = headers.connection?.toLowerCase();
    this.keepAlive =
      status[7] === "1" ? !connection?.includes("close") : connection?.includes("keep-alive") === true;
    const hint = headers["keep-alive"] && /timeout=(\d+)/i.exec(headers["keep-alive"]);
    if (hint) this.keepAliveHintMs = Number(hint[1]) * 1000;
    this.frameBody(code, headers);
  }

  private frameBody(code: number, headers: Record<string, string>): void {
    if (this.method === "HEAD" || code === 204 || code === 304) {
      this.stage = "done";
      return;
    }
    const coding = headers["transfer-encoding"];
    if (coding !== undefined) {
      // A body framed by a coding other than chunked runs to the close.
      const chunked = /(?:^|,)[ \t]*chunked[ \t]*$/i.test(coding);
      this.stage = chunked ? "chunkSize" : "untilClose";
      if (!chunked || headers["content-length"] !== undefined) this.keepAlive = false;
      return;
    }
    const length = headers["content-length"];
    if (length === undefined) {
      this.stage = "untilClose";
      this.keepAlive = false;
      return;
    }
    if (!/^\d{1,15}$/.test(length)) throw new Error("the hub's answer has an invalid Content-Length");
    this.remaining = Number(length);
    this.stage = this.remaining === 0 ? "done" : "length";
    if (this.remaining > 0 && this.remaining <= MAX_SIZED_BODY_BYTES)
      this.sized = bodies.take(this.remaining);
  }
}
