import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { type PlainAnswer, PlainReader, plainRules } from "./plain-reader.js";

/** Feeds `text` in pieces of `size` bytes through one buffer that is overwritten after each push. */
function feed(reader: PlainReader, text: string, size: number): PlainAnswer | undefined {
  const bytes = Buffer.from(text, "latin1");
  const read = Buffer.alloc(size);
  let answer: PlainAnswer | undefined;
  for (let at = 0; at < bytes.length; at += size) {
    const length = bytes.copy(read, 0, at, at + size);
    answer = reader.push(read.subarray(0, length));
    read.fill(0x78);
    if (answer !== undefined) return answer;
  }
  return answer;
}

const chunked =
  "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n7\r\n, world\r\n0\r\nx-trailer: t\r\n\r\n";

describe("the response framing", () => {
  test("a body framed by its length reads the same at any split, though the read buffer is reused", () => {
    const text = "HTTP/1.1 200 OK\r\ncontent-length: 12\r\nkeep-alive: timeout=5\r\n\r\nhello, world";
    for (const size of [1, 2, 3, 7, 64, 1024]) {
      const answer = feed(new PlainReader(), text, size);
      assert.equal(answer?.body, "hello, world", `split ${size}`);
      assert.equal(answer?.keepAlive, true);
      assert.equal(answer?.keepAliveHintMs, 5_000);
    }
  });

  test("a chunked body is read whole at any split, trailers passed to the rules' check", () => {
    for (const size of [1, 4, 9, 1024]) {
      const trailers: string[] = [];
      const reader = new PlainReader({ ...plainRules, trailer: (line) => trailers.push(line) });
      assert.equal(feed(reader, chunked, size)?.body, "hello, world", `split ${size}`);
      assert.deepEqual(trailers, ["x-trailer: t"]);
    }
  });

  test("an informational head is skipped for the answer after it", () => {
    const answer = feed(
      new PlainReader(),
      "HTTP/1.1 103 Early Hints\r\nlink: </a>\r\n\r\nHTTP/1.1 201 Created\r\ncontent-length: 2\r\n\r\n{}",
      1024,
    );
    assert.equal(answer?.statusCode, 201);
    assert.equal(answer?.body, "{}");
  });

  test("a body without length runs to the close: end() gives it, and the connection is not kept", () => {
    const reader = new PlainReader();
    assert.equal(feed(reader, "HTTP/1.1 200 OK\r\n\r\nuntil", 1024), undefined);
    assert.equal(reader.push(Buffer.from(" close")), undefined);
    assert.equal(reader.endsAtClose, true);
    const answer = reader.end();
    assert.equal(answer.body, "until close");
    assert.equal(answer.keepAlive, false);
  });

  test("an end before the answer ended throws the reader's cutShort error", () => {
    const reader = new PlainReader();
    assert.equal(reader.push(Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 9\r\n\r\nshort")), undefined);
    assert.equal(reader.endsAtClose, false);
    assert.throws(() => reader.end(), /cut short/);
  });

  test("bytes after the answer leave it whole but its connection not to be used again", () => {
    const answer = new PlainReader().push(
      Buffer.from("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}HTTP/1.1"),
    );
    assert.equal(answer?.body, "{}");
    assert.equal(answer?.keepAlive, false);
  });

  test("the rules' limits and errors are the ones thrown", () => {
    assert.throws(() => new PlainReader().push(Buffer.alloc(2048, 0x61)), /head too large/);
    assert.throws(
      () =>
        feed(
          new PlainReader(),
          `HTTP/1.1 200 OK\r\ncontent-length: 0\r\nx: ${"a".repeat(1100)}\r\n\r\n`,
          4096,
        ),
      /head too large/,
    );
    const head = "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n";
    assert.throws(() => feed(new PlainReader(), `${head}${"1".repeat(100)}`, 4096), /chunk line too long/);
    assert.throws(() => feed(new PlainReader(), `${head}2\r\nabXY`, 4096), /no CRLF after chunk/);
    assert.throws(() => feed(new PlainReader(), `${head}zz\r\n`, 4096), /bad chunk size/);
  });

  test("a head still arriving is shown to the rules' partialHead check", () => {
    const seen: string[] = [];
    const reader = new PlainReader({
      ...plainRules,
      partialHead: (bytes, offset) => {
        seen.push(bytes.toString("latin1", offset));
      },
    });
    assert.equal(reader.push(Buffer.from("HTTP/1.1 200 OK\r\n")), undefined);
    assert.equal(reader.push(Buffer.from("content-length: 0\r\n")), undefined);
    assert.equal(reader.push(Buffer.from("\r\n"))?.statusCode, 200);
    assert.deepEqual(seen, ["HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n"]);
  });
});
