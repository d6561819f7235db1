// Hex and uint256 words written straight into a byte array: the typed data hasher and orderIdentifier
// write a few dozen words per quote, and a Buffer decoded from a padded hex string per word was most
// of their own time.

const NIBBLES = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit += 1) {
  NIBBLES["0123456789abcdef".charCodeAt(digit)] = digit;
  NIBBLES["0123456789ABCDEF".charCodeAt(digit)] = digit;
}

function nibble(code: number): number {
  return code < 128 ? (NIBBLES[code] as number) : -1;
}

/**
 * Writes the hex digits after `0x` as bytes at `offset`, as
 * `into.set(Buffer.from(hex.slice(2), "hex"), offset)` does; anything but plain hex that fits is left
 * to exactly that.
 */
export function setHexBytes(into: Uint8Array, offset: number, hex: string): void {
  const end = hex.length - (hex.length & 1);
  if (offset + (end - 2) / 2 <= into.length) {
    let at = offset;
    let i = 2;
    for (; i < end; i += 2, at += 1) {
      const high = nibble(hex.charCodeAt(i));
      const low = nibble(hex.charCodeAt(i + 1));
      if (high < 0 || low < 0) break;
      into[at] = (high << 4) | low;
    }
    if (i >= end) return;
  }
  into.set(Buffer.from(hex.slice(2), "hex"), offset);
}

/** The bytes of the hex digits after `0x`, as `Buffer.from(hex.slice(2), "hex")` decodes them. */
export function hexBytes(hex: string): Uint8Array {
  const end = hex.length - (hex.length & 1);
  const bytes = new Uint8Array(Math.max(0, (end - 2) / 2));
  for (let i = 2, at = 0; i < end; i += 2, at += 1) {
    const high = nibble(hex.charCodeAt(i));
    const low = nibble(hex.charCodeAt(i + 1));
    if (high < 0 || low < 0) return Buffer.from(hex.slice(2), "hex");
    bytes[at] = (high << 4) | low;
  }
  return bytes;
}

/**
 * Writes `0x` hex of whole bytes at `offset` and returns true; returns false (maybe having written some
 * bytes) for anything else. The caller makes room for the bytes.
 */
export function writeWholeHex(into: Uint8Array, offset: number, hex: string): boolean {
  if ((hex.length & 1) === 1 || hex.charCodeAt(0) !== 48 || hex.charCodeAt(1) !== 120) return false;
  for (let i = 2, at = offset; i < hex.length; i += 2, at += 1) {
    const high = nibble(hex.charCodeAt(i));
    const low = nibble(hex.charCodeAt(i + 1));
    if (high < 0 || low < 0) return false;
    into[at] = (high << 4) | low;
  }
  return true;
}

function isHexFrom(text: string, start: number): boolean {
  for (let i = start; i < text.length; i += 1) if (nibble(text.charCodeAt(i)) < 0) return false;
  return true;
}

/**
 * Writes hex that must be `0x` and whole bytes (exactly `size` of them when given) at `offset`;
 * anything else throws the TypeError `<hex> is not <size|whole> bytes of hex`.
 */
export function setExactHexBytes(into: Uint8Array, offset: number, hex: string, size?: number): void {
  const valid =
    hex.charCodeAt(0) === 48 &&
    hex.charCodeAt(1) === 120 &&
    (hex.length & 1) === 0 &&
    (size === undefined || hex.length === 2 + 2 * size);
  if (valid && offset + (hex.length - 2) / 2 <= into.length && isHexFrom(hex, 2)) {
    for (let i = 2, at = offset; i < hex.length; i += 2, at += 1) {
      into[at] = (nibble(hex.charCodeAt(i)) << 4) | nibble(hex.charCodeAt(i + 1));
    }
    return;
  }
  if (!/^0x(?:[0-9a-fA-F]{2})*$/.test(hex) || (size !== undefined && hex.length !== 2 + 2 * size)) {
    throw new TypeError(`${hex} is not ${size ?? "whole"} bytes of hex`);
  }
  into.set(Buffer.from(hex.slice(2), "hex"), offset);
}

const UINT256_HEX_DIGITS = 64;
const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);

/** A non-negative safe integer as one 32-byte big-endian word at `offset`. */
function setSafeInteger(into: Uint8Array, offset: number, value: number): void {
  if (offset + 32 > into.length) throw new RangeError("offset is out of bounds");
  let rest = value;
  let at = offset + 31;
  for (; rest > 0; at -= 1) {
    into[at] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  into.fill(0, offset, at + 1);
}

/**
 * Writes a uint256 as one 32-byte big-endian word at `offset`; a value out of range (negative, over 256
 * bits, not an integer) throws a RangeError, as viem's encoders do.
 */
export function setUint256(into: Uint8Array, offset: number, value: bigint | number): void {
  if (typeof value === "bigint" && value >= 0n && value <= MAX_SAFE_BIGINT) {
    setSafeInteger(into, offset, Number(value));
    return;
  }
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) {
    setSafeInteger(into, offset, value);
    return;
  }
  const hex = BigInt(value).toString(16);
  if (hex.startsWith("-") || hex.length > UINT256_HEX_DIGITS)
    throw new RangeError(`${value} is not a uint256`);
  if (offset + 32 > into.length) throw new RangeError("offset is out of bounds");
  const first = offset + 32 - Math.ceil(hex.length / 2);
  into.fill(0, offset, first);
  let at = first;
  let i = 0;
  if ((hex.length & 1) === 1) {
    into[at] = nibble(hex.charCodeAt(0));
    at += 1;
    i = 1;
  }
  for (; i < hex.length; i += 2, at += 1) {
    into[at] = (nibble(hex.charCodeAt(i)) << 4) | nibble(hex.charCodeAt(i + 1));
  }
}
