import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { BufferSlab } from "../src/buffer-slab.js";

describe("BufferSlab", () => {
  test("pieces of one slab do not overlap and start 8-byte aligned", () => {
    const slab = new BufferSlab();
    const sizes = [1, 7, 8, 9, 2048, 100, 3];
    const pieces = sizes.map((size) => slab.take(size));
    pieces.forEach((piece, i) => {
      assert.equal(piece.length, sizes[i]);
      assert.equal(piece.buffer, pieces[0]!.buffer, "all from the first slab");
      assert.equal(piece.byteOffset % 8, 0);
    });
    for (const [i, piece] of pieces.entries()) piece.fill(i + 1);
    for (const [i, piece] of pieces.entries()) {
      assert.ok(
        piece.every((byte) => byte === i + 1),
        `piece ${i} kept its bytes`,
      );
    }
  });

  test("a piece over 8 KiB gets its own buffer; a full slab is replaced, its pieces untouched", () => {
    const slab = new BufferSlab();
    const small = slab.take(16);
    const large = slab.take(8 * 1024 + 1);
    assert.notEqual(large.buffer, small.buffer);
    assert.equal(large.length, 8 * 1024 + 1);
    small.fill(0xab);
    // 8 pieces of 8 KiB fill the rest of the 64 KiB slab past the first 16 bytes; the last one does not fit.
    const pieces = Array.from({ length: 8 }, () => slab.take(8 * 1024));
    assert.equal(pieces[6]!.buffer, small.buffer);
    assert.notEqual(pieces[7]!.buffer, small.buffer, "a new slab once the first is used up");
    pieces[7]!.fill(0);
    assert.ok(small.every((byte) => byte === 0xab));
  });
});
