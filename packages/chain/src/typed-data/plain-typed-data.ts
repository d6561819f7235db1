import type { Hex } from "viem";
import { bytesToHex } from "viem";
import { setUint256, writeWholeHex } from "../hex-bytes.js";
import { keccak256Bytes as keccak, keccak256Into } from "../keccak.js";
import { domainSeparator, sameValues } from "./generic-typed-data.js";
import { encodingOf } from "./typed-data-encodings.js";
import {
  EMPTY_BYTES_HASH,
  type Encoding,
  type LeafMemo,
  type StructPlan,
  type TypedDataHasherState,
  textEncoder,
} from "./typed-data-hasher-state.js";

// The fast path: values in their plain form written into the hasher's one scratch buffer.

/** Typed data whose values are already in the form a wallet signs: hex strings, decimal strings or numbers. */
export interface HashableTypedData {
  domain: Record<string, unknown>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** Decimal digits only, at most 77 of them: a uint256 that BigInt reads as it is. */
function isShortDecimal(text: string): boolean {
  if (text.length === 0 || text.length > 77) return false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

function room(state: TypedDataHasherState, end: number): void {
  if (end <= state.scratch.length) return;
  const larger = new Uint8Array(Math.max(end, 2 * state.scratch.length));
  larger.set(state.scratch);
  state.scratch = larger;
}

function sameBytes(state: TypedDataHasherState, bytes: Uint8Array, at: number): boolean {
  const { scratch } = state;
  for (let i = 0; i < bytes.length; i += 1) if (scratch[at + i] !== bytes[i]) return false;
  return true;
}

/** Writes the word of `value` at `slot`, using bytes from `free` on; false if it is not a plain value. */
function writeValue(
  state: TypedDataHasherState,
  encoding: Encoding,
  value: unknown,
  slot: number,
  free: number,
): boolean {
  switch (encoding.kind) {
    case "address":
      return (
        typeof value === "string" && value.length === 42 && writeWholeHex(state.scratch, slot + 12, value)
      );
    case "bytes32":
      return typeof value === "string" && value.length === 66 && writeWholeHex(state.scratch, slot, value);
    case "uint":
      if (typeof value === "number") {
        if (!Number.isSafeInteger(value) || value < 0) return false;
        setUint256(state.scratch, slot, value);
        return true;
      }
      if (typeof value !== "string" || !isShortDecimal(value)) return false;
      setUint256(state.scratch, slot, value.length <= 15 ? Number(value) : BigInt(value));
      return true;
    case "bytes": {
      if (value === "0x") {
        state.scratch.set(EMPTY_BYTES_HASH, slot);
        return true;
      }
      if (typeof value !== "string" || (value.length & 1) === 1) return false;
      const end = free + (value.length - 2) / 2;
      room(state, end);
      if (!writeWholeHex(state.scratch, free, value)) return false;
      keccak256Into(state.scratch, free, end, state.scratch, slot);
      return true;
    }
    case "string":
      if (typeof value !== "string") return false;
      state.scratch.set(keccak(textEncoder.encode(value)), slot);
      return true;
    case "struct":
      return encoding.struct !== undefined && writeStruct(state, encoding.struct, value, slot, free);
    case "array":
      return writeArray(state, encoding, value, slot, free);
    default:
      return false;
  }
}

function writeArray(
  state: TypedDataHasherState,
  encoding: Encoding,
  value: unknown,
  slot: number,
  free: number,
): boolean {
  const { item } = encoding;
  if (!Array.isArray(value) || item === undefined) return false;
  const end = free + 32 * value.length;
  room(state, end);
  state.scratch.fill(0, free, end);
  for (let i = 0; i < value.length; i += 1) {
    if (!writeValue(state, item, value[i], free + 32 * i, end)) return false;
  }
  const last = encoding.lastWords;
  if (last !== undefined && last.length === end - free && sameBytes(state, last, free)) {
    state.scratch.set(encoding.lastHash, slot);
    return true;
  }
  keccak256Into(state.scratch, free, end, state.scratch, slot);
  encoding.lastWords = state.scratch.slice(free, end);
  encoding.lastHash.set(state.scratch.subarray(slot, slot + 32));
  return true;
}

// A struct of plain words whose values are, one for one, the very values it last hashed (the same
// token and amount in every quote of a round) takes that hash again.
function writeLeafStruct(
  state: TypedDataHasherState,
  struct: StructPlan,
  leaf: LeafMemo,
  data: object,
  slot: number,
  free: number,
): boolean {
  const { fields } = struct;
  const { next, last } = leaf;
  let same = leaf.known;
  fields.forEach(({ name }, i) => {
    next[i] = (data as Record<string, unknown>)[name];
    same = same && next[i] === last[i];
  });
  if (same) {
    state.scratch.set(leaf.hash, slot);
    return true;
  }
  const end = free + struct.size;
  room(state, end);
  state.scratch.set(struct.typeHash, free);
  state.scratch.fill(0, free + 32, end);
  const written = fields.every(({ encoding }, i) =>
    writeValue(state, encoding, next[i], free + 32 * (i + 1), end),
  );
  if (!written) return false;
  keccak256Into(state.scratch, free, end, state.scratch, slot);
  leaf.hash.set(state.scratch.subarray(slot, slot + 32));
  leaf.next = last;
  leaf.last = next;
  leaf.known = true;
  return true;
}

function writeStruct(
  state: TypedDataHasherState,
  struct: StructPlan,
  data: unknown,
  slot: number,
  free: number,
): boolean {
  if (typeof data !== "object" || data === null) return false;
  if (struct.leaf !== undefined) return writeLeafStruct(state, struct, struct.leaf, data, slot, free);
  const end = free + struct.size;
  room(state, end);
  state.scratch.set(struct.typeHash, free);
  state.scratch.fill(0, free + 32, end);
  const written = struct.fields.every(({ name, encoding }, i) =>
    writeValue(state, encoding, (data as Record<string, unknown>)[name], free + 32 * (i + 1), end),
  );
  if (!written) return false;
  keccak256Into(state.scratch, free, end, state.scratch, slot);
  return true;
}

function knownDomainSeparator(state: TypedDataHasherState, domain: Record<string, unknown>): Uint8Array {
  const { lastDomain, domainFields } = state;
  if (lastDomain !== undefined && domainFields.every((name, i) => domain[name] === lastDomain[i]))
    return state.lastSeparator;
  const separator = domainSeparator(state, domain);
  const values = domainFields.map((name) => domain[name]);
  state.lastDomain = values.every((value) => typeof value !== "object" && typeof value !== "function")
    ? values
    : undefined;
  state.lastSeparator = separator;
  return separator;
}

/** The hash by the fast path, or undefined when a value is not in its plain form. */
export function hashPlain(state: TypedDataHasherState, typedData: HashableTypedData): Hex | undefined {
  const { domain, primaryType } = typedData;
  if (typeof primaryType !== "string" || typeof domain !== "object" || domain === null) return undefined;
  const message = encodingOf(state, primaryType);
  if (message.kind !== "struct" || message.struct === undefined) return undefined;
  const separator = knownDomainSeparator(state, domain);
  if (!writeStruct(state, message.struct, typedData.message, 34, 66)) return undefined;
  state.scratch[0] = 0x19;
  state.scratch[1] = 0x01;
  state.scratch.set(separator, 2);
  return bytesToHex(keccak(state.scratch.subarray(0, 66)));
}

export function sameValuesPlain(
  state: TypedDataHasherState,
  encoding: Encoding,
  given: unknown,
  known: unknown,
): boolean {
  const { item, struct } = encoding;
  if (encoding.kind === "array" && item !== undefined) {
    if (!Array.isArray(given) || !Array.isArray(known) || given.length !== known.length) return false;
    // As Array.prototype.every: a hole in `given` is skipped.
    for (let i = 0; i < given.length; i += 1) {
      if (i in given && !sameValuesPlain(state, item, given[i], known[i])) return false;
    }
    return true;
  }
  if (encoding.kind === "struct" && struct !== undefined) {
    if (typeof given !== "object" || given === null || Array.isArray(given)) return false;
    const givenRecord = given as Record<string, unknown>;
    const knownRecord = known as Record<string, unknown>;
    const { fields } = struct;
    if (Object.keys(givenRecord).length !== fields.length) return false;
    return fields.every(
      ({ name, encoding: fieldEncoding }) =>
        Object.hasOwn(givenRecord, name) &&
        sameValuesPlain(state, fieldEncoding, givenRecord[name], knownRecord[name]),
    );
  }
  if (encoding.kind === "generic") return sameValues(state, encoding.type, given, known);
  if (given === known) return true;
  return (
    encoding.uintLike &&
    (typeof given === "number" || typeof given === "string") &&
    (typeof known === "number" || typeof known === "string") &&
    String(given) === String(known)
  );
}
