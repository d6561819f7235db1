import { copyOf, type FramingRules, ResponseFraming } from "../src/index.js";

/** A response as the tests' reader gives it. */
export interface PlainAnswer {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly keepAlive: boolean;
  readonly keepAliveHintMs: number | undefined;
}

/** A rule's error: the test matches its text. */
function refusal(text: string): () => Error {
  return () => new Error(text);
}

function hexChunkSize(line: string): number {
  if (!/^[0-9a-f]{1,6}$/i.test(line)) throw new Error("bad chunk size");
  return Number.parseInt(line, 16);
}

export const plainRules: FramingRules = {
  maxHeadBytes: 1024,
  maxChunkLineBytes: 64,
  headTooLarge: refusal("head too large"),
  chunkLineTooLong: refusal("chunk line too long"),
  noCrlfAfterChunk: refusal("no CRLF after chunk"),
  chunkSize: hexChunkSize,
};

/**
 * The least reader a test needs: a status line, `name: value` headers, Content-Length, chunked or to
 * the close, 1xx skipped. Body bytes are copied as they arrive.
 */
export class PlainReader extends ResponseFraming<PlainAnswer> {
  private statusCode = 0;
  private headers: Record<string, string> = {};
  private keepAliveHintMs: number | undefined;
  private readonly chunks: Buffer[] = [];

  constructor(rules: FramingRules = plainRules) {
    super(rules);
  }

  cutShort(): Error {
    return new Error("cut short");
  }

  protected readHead(head: string): void {
    const [status, ...lines] = head.split("\r\n");
    const code = Number(status!.slice(9, 12));
    if (!status!.startsWith("HTTP/1.1 ") || !(code >= 100)) throw new Error("no status line");
    if (code < 200) return;
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    this.statusCode = code;
    this.headers = headers;
    this.keepAlive = headers.connection !== "close";
    const hint = /timeout=(\d+)/.exec(headers["keep-alive"] ?? "");
    if (hint !== null) this.keepAliveHintMs = Number(hint[1]) * 1000;
    if (headers["transfer-encoding"] === "chunked") this.stage = "chunkSize";
    else if (headers["content-length"] === undefined) {
      this.stage = "untilClose";
      this.keepAlive = false;
    } else {
      this.remaining = Number(headers["content-length"]);
      this.stage = this.remaining === 0 ? "done" : "length";
    }
  }

  protected keep(bytes: Buffer, start: number, end: number): void {
    this.chunks.push(copyOf(bytes, start, end));
  }

  protected answer(): PlainAnswer {
    return {
      statusCode: this.statusCode,
      headers: this.headers,
      body: Buffer.concat(this.chunks).toString(),
      keepAlive: this.keepAlive,
      keepAliveHintMs: this.keepAliveHintMs,
    };
  }
}
