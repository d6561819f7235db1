import assert from "node:assert/strict";
import { randomBytes, randomInt } from "node:crypto";
import { describe, it } from "node:test";
import { bytesToHex, keccak256 } from "viem";
import { keccak256Bytes, keccak256Into } from "../src/keccak.js";

// hash-wasm's module takes 16 KiB at a time: lengths around a block (136 bytes) and around 16 KiB.
const LENGTHS = [0, 1, 31, 32, 64, 66, 135, 136, 137, 272, 580, 16_383, 16_384, 16_385, 32_768, 40_000];

describe("keccak-256 over hash-wasm's WebAssembly", () => {
  it("hashes every length as viem's keccak256 does, within and across the module's 16 KiB buffer", () => {
    for (const length of LENGTHS) {
      const bytes = randomBytes(length);
      assert.equal(bytesToHex(keccak256Bytes(bytes)), keccak256(bytes), `length ${length}`);
    }
  });

  it("hashes a range of the bytes into another array or into the same one at an offset", () => {
    for (let round = 0; round < 300; round += 1) {
      const bytes = new Uint8Array(randomBytes(randomInt(1, 20_000)));
      const start = randomInt(0, bytes.length);
      const end = randomInt(start, bytes.length + 1);
      const expected = keccak256(bytes.subarray(start, end));
      const into = new Uint8Array(64);
      keccak256Into(bytes, start, end, into, 7);
      assert.equal(bytesToHex(into.subarray(7, 39)), expected);
      assert.ok(into.subarray(0, 7).every((byte) => byte === 0) && into.subarray(39).every((b) => b === 0));
      if (bytes.length >= 32) {
        const offset = randomInt(0, bytes.length - 31);
        keccak256Into(bytes, start, end, bytes, offset);
        assert.equal(bytesToHex(bytes.subarray(offset, offset + 32)), expected);
      }
    }
  });

  it("returns a digest of its own that a later hash does not overwrite", () => {
    const first = keccak256Bytes(new Uint8Array([1, 2, 3]));
    keccak256Bytes(new Uint8Array([4, 5, 6]));
    assert.equal(bytesToHex(first), keccak256(new Uint8Array([1, 2, 3])));
  });
});
