import assert from "node:assert/strict";
import { randomBytes, randomInt } from "node:crypto";
import { describe, it } from "node:test";
import { hexBytes, setExactHexBytes, setHexBytes, setUint256, writeWholeHex } from "../src/hex-bytes.js";

// What the typed data hasher and orderIdentifier wrote before: a Buffer decoded from hex, set in place.
function bufferSetHex(into: Uint8Array, offset: number, hex: string): void {
  into.set(Buffer.from(hex.slice(2), "hex"), offset);
}

function bufferWord(into: Uint8Array, offset: number, value: bigint | number): void {
  const hex = BigInt(value).toString(16);
  if (hex.startsWith("-") || hex.length > 64) throw new RangeError(`${value} is not a uint256`);
  into.set(Buffer.from(hex.padStart(64, "0"), "hex"), offset);
}

function bufferExactHex(into: Uint8Array, offset: number, hex: string, size?: number): void {
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(hex) || (size !== undefined && hex.length !== 2 + 2 * size)) {
    throw new TypeError(`${hex} is not ${size ?? "whole"} bytes of hex`);
  }
  into.set(Buffer.from(hex.slice(2), "hex"), offset);
}

/** Mostly hex, now and then a character that is not (a letter past f, a sign, a non-ASCII one). */
function hexish(maxLength: number): string {
  const alphabet = "0123456789abcdefABCDEF";
  const odd = ["g", "-", "x", " ", "İ", "é", "\u0130", "0x"];
  let text = "0x";
  const length = randomInt(0, maxLength + 1);
  for (let i = 0; i < length; i += 1) {
    text += randomInt(0, 40) === 0 ? odd[randomInt(0, odd.length)] : alphabet[randomInt(0, alphabet.length)];
  }
  return randomInt(0, 20) === 0 ? text.slice(2) : text;
}

/** Runs both writers on equal fresh arrays: the same bytes, or the same error. */
function sameWrite(
  write: (into: Uint8Array) => void,
  reference: (into: Uint8Array) => void,
  size: number,
): void {
  const fill = randomBytes(size);
  const ours = new Uint8Array(fill);
  const theirs = new Uint8Array(fill);
  let ourError: unknown;
  let theirError: unknown;
  try {
    write(ours);
  } catch (error) {
    ourError = error;
  }
  try {
    reference(theirs);
  } catch (error) {
    theirError = error;
  }
  assert.equal(ourError?.constructor, theirError?.constructor);
  assert.equal((ourError as Error | undefined)?.message, (theirError as Error | undefined)?.message);
  assert.deepEqual(ours, theirs);
}

describe("hex and words written in place hold to the Buffer decoding they replace", () => {
  it("setHexBytes writes what Buffer.from(hex) set in place writes, for any text and offset", () => {
    for (let i = 0; i < 5000; i += 1) {
      const hex = hexish(80);
      const offset = randomInt(0, 48);
      sameWrite(
        (into) => setHexBytes(into, offset, hex),
        (into) => bufferSetHex(into, offset, hex),
        64,
      );
    }
  });

  it("hexBytes decodes what Buffer.from(hex) decodes", () => {
    for (let i = 0; i < 5000; i += 1) {
      const hex = hexish(80);
      assert.deepEqual(new Uint8Array(hexBytes(hex)), new Uint8Array(Buffer.from(hex.slice(2), "hex")));
    }
  });

  it("setExactHexBytes writes or refuses as the regular expression and Buffer did", () => {
    for (let i = 0; i < 5000; i += 1) {
      const hex = hexish(72);
      const size = randomInt(0, 3) === 0 ? undefined : randomInt(0, 36);
      const offset = randomInt(0, 48);
      sameWrite(
        (into) => setExactHexBytes(into, offset, hex, size),
        (into) => bufferExactHex(into, offset, hex, size),
        64,
      );
    }
  });

  it("setUint256 writes the word, or throws the same RangeError, for numbers and bigints in and out of range", () => {
    const values: (bigint | number)[] = [0, 1, 255, 256, 2 ** 53 - 1, 2 ** 53, 2 ** 60, 1.5, -1, -1n, 0n];
    values.push((1n << 256n) - 1n, 1n << 256n, -(1n << 255n));
    for (let i = 0; i < 3000; i += 1) {
      const big = BigInt(`0x${randomBytes(randomInt(1, 34)).toString("hex")}`);
      values.push(big, randomInt(0, 3) === 0 ? Number(big & 0xffffffffffffn) : -big);
    }
    for (const value of values) {
      const offset = randomInt(0, 40);
      sameWrite(
        (into) => setUint256(into, offset, value),
        (into) => bufferWord(into, offset, value),
        64,
      );
    }
  });

  it("writeWholeHex takes exactly the hex setExactHexBytes takes, and writes the same bytes", () => {
    for (let i = 0; i < 5000; i += 1) {
      const hex = hexish(72);
      const offset = randomInt(0, 16);
      const fill = randomBytes(64);
      const ours = new Uint8Array(fill);
      const theirs = new Uint8Array(fill);
      let taken = true;
      try {
        bufferExactHex(theirs, offset, hex);
      } catch {
        taken = false;
      }
      assert.equal(writeWholeHex(ours, offset, hex), taken);
      if (taken) assert.deepEqual(ours, theirs);
    }
  });
});
