import { hexBytes, setHexBytes, setUint256 } from "../hex-bytes.js";
import { keccak256Bytes as keccak } from "../keccak.js";
import {
  EMPTY_BYTES_HASH,
  type TypedDataHasherState,
  textEncoder,
  typeFields,
} from "./typed-data-hasher-state.js";

// The generic encoder: every value read as EIP-712 defines it, for what the fast path does not take.

const UINT256_MAX = (1n << 256n) - 1n;

/** A uint value's word: its 32 bytes, or (negative, over 256 bits) the bytes of its hex as given. */
function setUintWord(into: Uint8Array, offset: number, value: string | number): void {
  const uint = typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : BigInt(value);
  if (typeof uint === "number" || (uint >= 0n && uint <= UINT256_MAX)) setUint256(into, offset, uint);
  else setHexBytes(into, offset, `0x${uint.toString(16).padStart(64, "0")}`);
}

function encodeValue(
  state: TypedDataHasherState,
  type: string,
  value: unknown,
  into: Uint8Array,
  offset: number,
): void {
  if (type.endsWith("[]")) {
    const itemType = type.slice(0, -2);
    const items = value as unknown[];
    const encoded = new Uint8Array(32 * items.length);
    items.forEach((item, i) => {
      encodeValue(state, itemType, item, encoded, 32 * i);
    });
    into.set(keccak(encoded), offset);
  } else if (state.typeHashes.has(type)) {
    into.set(hashStruct(state, type, value as Record<string, unknown>), offset);
  } else if (type === "address") {
    setHexBytes(into, offset + 12, value as string);
  } else if (type === "bytes32") {
    setHexBytes(into, offset, value as string);
  } else if (type === "bytes") {
    into.set(value === "0x" ? EMPTY_BYTES_HASH : keccak(hexBytes(value as string)), offset);
  } else if (type === "string") {
    into.set(keccak(textEncoder.encode(value as string)), offset);
  } else if (/^uint(8|16|32|64|128|256)$/.test(type)) {
    setUintWord(into, offset, value as string | number);
  } else {
    throw new Error(`typed data hasher: unsupported type ${type}`);
  }
}

export function hashStruct(
  state: TypedDataHasherState,
  primaryType: string,
  data: Record<string, unknown>,
): Uint8Array {
  const fields = typeFields(state.types, primaryType);
  const typeHash = state.typeHashes.get(primaryType);
  if (typeHash === undefined) throw new Error(`typed data hasher: unknown type ${primaryType}`);
  const encoded = new Uint8Array(32 * (fields.length + 1));
  encoded.set(typeHash, 0);
  fields.forEach((field, i) => {
    encodeValue(state, field.type, data[field.name], encoded, 32 * (i + 1));
  });
  return keccak(encoded);
}

/** The domain's separator, kept for up to `domainCacheSize` domains. */
export function domainSeparator(state: TypedDataHasherState, domain: Record<string, unknown>): Uint8Array {
  const key = JSON.stringify(typeFields(state.types, "EIP712Domain").map((field) => domain[field.name]));
  let separator = state.domainSeparators.get(key);
  if (separator === undefined) {
    separator = hashStruct(state, "EIP712Domain", domain);
    if (state.domainSeparators.size >= state.domainCacheSize) state.domainSeparators.clear();
    state.domainSeparators.set(key, separator);
  }
  return separator;
}

/**
 * True when `given` holds, field by field, the values of `known` as EIP-712 encodes them, so that
 * both hash the same: the very same strings, and a uint may be a number where the other has its
 * decimal string. Another spelling (a checksummed address, a stray key) is not judged here: false.
 */
export function sameValues(
  state: TypedDataHasherState,
  type: string,
  given: unknown,
  known: unknown,
): boolean {
  if (type.endsWith("[]")) {
    const itemType = type.slice(0, -2);
    return (
      Array.isArray(given) &&
      Array.isArray(known) &&
      given.length === known.length &&
      given.every((item, i) => sameValues(state, itemType, item, known[i]))
    );
  }
  const fields = state.types[type];
  if (fields !== undefined) {
    if (typeof given !== "object" || given === null || Array.isArray(given)) return false;
    const givenRecord = given as Record<string, unknown>;
    const knownRecord = known as Record<string, unknown>;
    return (
      Object.keys(givenRecord).length === fields.length &&
      fields.every(
        (field) =>
          Object.hasOwn(givenRecord, field.name) &&
          sameValues(state, field.type, givenRecord[field.name], knownRecord[field.name]),
      )
    );
  }
  if (given === known) return true;
  return (
    type.startsWith("uint") &&
    (typeof given === "number" || typeof given === "string") &&
    (typeof known === "number" || typeof known === "string") &&
    String(given) === String(known)
  );
}
