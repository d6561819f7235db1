/** Where a response stands: its head, a body framed by length, by chunks or by the close, or done. */
export type FramingStage =
  | "head"
  | "length"
  | "chunkSize"
  | "chunkData"
  | "chunkDataEnd"
  | "trailers"
  | "untilClose"
  | "done";

/** What the framing is strict or lenient about, and the errors it throws, as one side of the client wants them. */
export interface FramingRules {
  /** The most bytes a head may hold (status line, header lines, line ends). */
  readonly maxHeadBytes: number;
  /** The most bytes a chunk-size or trailer line may hold. */
  readonly maxChunkLineBytes: number;
  readonly headTooLarge: () => Error;
  readonly chunkLineTooLong: () => Error;
  /** Chunk data not followed by CRLF. */
  readonly noCrlfAfterChunk: () => Error;
  /** A chunk-size line's size, or a throw for a line that is not one. */
  readonly chunkSize: (line: string) => number;
  /** Checks a trailer line; trailers are skipped unread without it. */
  readonly trailer?: (line: string) => void;
  /** Checks the part of a head that has arrived while its end has not. */
  readonly partialHead?: (bytes: Buffer, offset: number) => void;
}

/** The end of a head; a Buffer needle is searched for without the string's encoding step. */
const HEAD_END = Buffer.from("\r\n\r\n", "latin1");

/**
 * Reads one HTTP/1.1 response from the bytes of a connection as they arrive: the head, then a body framed
 * by Content-Length, by chunked coding or by the close. What the head says and where the body goes are
 * the subclass's: `readHead` sets `stage` (and `remaining`, `keepAlive`), `keep` takes the body's bytes.
 * The bytes passed to `push` may be a read buffer used again for the next read: what is kept past a
 * `push` that returns nothing is the subclass's to copy (`held`).
 */
export abstract class ResponseFraming<Answer> {
  protected stage: FramingStage = "head";
  /** Bytes left of the body (length) or of the chunk being read. */
  protected remaining = 0;
  /** Whether the connection may carry the next call once this response has ended. */
  protected keepAlive = true;
  private pending: Buffer | undefined;

  constructor(private readonly rules: FramingRules) {}

  /** Feeds the next bytes; returns the answer once it is complete. */
  push(chunk: Buffer): Answer | undefined {
    let bytes = chunk;
    if (this.pending !== undefined) {
      bytes = Buffer.concat([this.pending, chunk]);
      this.pending = undefined;
    }
    const rules = this.rules;
    let offset = 0;
    while (this.stage !== "done") {
      switch (this.stage) {
        case "head": {
          const end = bytes.indexOf(HEAD_END, offset);
          if (end === -1) {
            if (bytes.length - offset > rules.maxHeadBytes) throw rules.headTooLarge();
            rules.partialHead?.(bytes, offset);
            return this.wait(bytes, offset);
          }
          if (end - offset > rules.maxHeadBytes) throw rules.headTooLarge();
          this.readHead(bytes.toString("latin1", offset, end));
          offset = end + 4;
          break;
        }
        case "length":
        case "chunkData": {
          const take = Math.min(this.remaining, bytes.length - offset);
          if (take > 0) this.keep(bytes, offset, offset + take);
          offset += take;
          this.remaining -= take;
          if (this.remaining > 0) return this.held(bytes);
          this.stage = this.stage === "length" ? "done" : "chunkDataEnd";
          break;
        }
        case "chunkDataEnd": {
          if (bytes.length - offset < 2) return this.wait(bytes, offset);
          if (bytes[offset] !== 13 || bytes[offset + 1] !== 10) throw rules.noCrlfAfterChunk();
          offset += 2;
          this.stage = "chunkSize";
          break;
        }
        case "chunkSize":
        case "trailers": {
          const end = bytes.indexOf("\r\n", offset, "latin1");
          if (end === -1) {
            if (bytes.length - offset > rules.maxChunkLineBytes) throw rules.chunkLineTooLong();
            return this.wait(bytes, offset);
          }
          const line = bytes.toString("latin1", offset, end);
          offset = end + 2;
          if (this.stage === "trailers") {
            if (line.length === 0) this.stage = "done";
            else rules.trailer?.(line);
            break;
          }
          this.remaining = rules.chunkSize(line);
          this.stage = this.remaining === 0 ? "trailers" : "chunkData";
          break;
        }
        case "untilClose": {
          if (offset < bytes.length) this.keep(bytes, offset, bytes.length);
          return this.held(bytes);
        }
      }
    }
    // Bytes after the answer answer nothing that was asked: the connection is not used again.
    if (offset < bytes.length) this.keepAlive = false;
    return this.answer(bytes);
  }

  /** True when the body runs to the close: a clean close then ends the answer. */
  get endsAtClose(): boolean {
    return this.stage === "untilClose";
  }

  /** The connection ended cleanly: the answer if its body runs to the close, else `cutShort()`'s throw. */
  end(): Answer {
    if (this.stage !== "untilClose") throw this.cutShort();
    this.keepAlive = false;
    this.stage = "done";
    return this.answer(undefined);
  }

  /** The error for a connection that ended before its answer did. */
  abstract cutShort(): Error;

  /** Reads a head (without its final CRLF CRLF); an informational one leaves `stage` at "head". */
  protected abstract readHead(head: string): void;

  /** Takes `bytes[start, end)` of the body. */
  protected abstract keep(bytes: Buffer, start: number, end: number): void;

  /** The answer, complete: `bytes` are the ones read last, when it ended in them. */
  protected abstract answer(bytes: Buffer | undefined): Answer;

  /** A `push` ends without the answer: what was kept of `bytes` must be copied now. */
  protected held(_bytes: Buffer): undefined {
    return undefined;
  }

  private wait(bytes: Buffer, offset: number): undefined {
    if (offset < bytes.length) this.pending = copyOf(bytes, offset, bytes.length);
    return this.held(bytes);
  }
}

/** A copy of bytes[start, end) (Buffer.from of a Buffer over 4 KiB copies byte by byte in Node 20). */
export function copyOf(bytes: Buffer, start: number, end: number): Buffer {
  const copy = Buffer.allocUnsafe(end - start);
  bytes.copy(copy, 0, start, end);
  return copy;
}
