// The typed data hasher as it was before its fast path (one fresh buffer per struct, values decoded
// as they come): the tests hold the hasher to it on any value, plain or not.
import { bytesToHex, type Hex } from "viem";
import { hexBytes, setHexBytes, setUint256 } from "../src/hex-bytes.js";
import { keccak256Bytes as keccak } from "../src/keccak.js";

type TypedDataTypes = Readonly<Record<string, readonly { readonly name: string; readonly type: string }[]>>;

/** Typed data whose values are already in the form a wallet signs: hex strings, decimal strings or numbers. */
export interface HashableTypedData {
  domain: Record<string, unknown>;
  primaryType: string;
  message: Record<string, unknown>;
}

const EMPTY_BYTES_HASH = keccak(new Uint8Array(0));
const textEncoder = new TextEncoder();
const UINT256_MAX = (1n << 256n) - 1n;

/** A uint value's word: its 32 bytes, or (negative, over 256 bits) the bytes of its hex as given. */
function setUintWord(into: Uint8Array, offset: number, value: string | number): void {
  const uint = typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : BigInt(value);
  if (typeof uint === "number" || (uint >= 0n && uint <= UINT256_MAX)) setUint256(into, offset, uint);
  else setHexBytes(into, offset, `0x${uint.toString(16).padStart(64, "0")}`);
}

/**
 * The EIP-712 hash of typed data under one fixed set of `types` (which include `EIP712Domain`), equal
 * to viem's `hashTypedData` for the types this supports (address, uintN, bytes32, bytes, string, structs
 * and arrays of structs): each type's hash is computed once, and each domain's separator is kept (up to
 * `domainCacheSize` domains), so a hash costs only the keccaks of the message's own structs. Values are
 * not validated: callers pass typed data they built themselves from checked values.
 */
export function createReferenceTypedDataHasher(types: TypedDataTypes, domainCacheSize = 256) {
  const typeHashes = new Map<string, Uint8Array>();
  for (const primaryType of Object.keys(types)) {
    typeHashes.set(primaryType, keccak(textEncoder.encode(encodeType(types, primaryType))));
  }
  const domainSeparators = new Map<string, Uint8Array>();

  const encodeValue = (type: string, value: unknown, into: Uint8Array, offset: number): void => {
    if (type.endsWith("[]")) {
      const itemType = type.slice(0, -2);
      const items = value as unknown[];
      const encoded = new Uint8Array(32 * items.length);
      items.forEach((item, i) => {
        encodeValue(itemType, item, encoded, 32 * i);
      });
      into.set(keccak(encoded), offset);
    } else if (typeHashes.has(type)) {
      into.set(hashStruct(type, value as Record<string, unknown>), offset);
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
  };

  const hashStruct = (primaryType: string, data: Record<string, unknown>): Uint8Array => {
    const fields = types[primaryType]!;
    const encoded = new Uint8Array(32 * (fields.length + 1));
    encoded.set(typeHashes.get(primaryType)!, 0);
    fields.forEach((field, i) => {
      encodeValue(field.type, data[field.name], encoded, 32 * (i + 1));
    });
    return keccak(encoded);
  };

  const domainSeparator = (domain: Record<string, unknown>): Uint8Array => {
    const key = JSON.stringify(types.EIP712Domain!.map((field) => domain[field.name]));
    let separator = domainSeparators.get(key);
    if (separator === undefined) {
      separator = hashStruct("EIP712Domain", domain);
      if (domainSeparators.size >= domainCacheSize) domainSeparators.clear();
      domainSeparators.set(key, separator);
    }
    return separator;
  };

  /**
   * True when `given` holds, field by field, the values of `known` as EIP-712 encodes them, so that
   * both hash the same: the very same strings, and a uint may be a number where the other has its
   * decimal string. Another spelling (a checksummed address, a stray key) is not judged here: false.
   */
  const sameValues = (type: string, given: unknown, known: unknown): boolean => {
    if (type.endsWith("[]")) {
      const itemType = type.slice(0, -2);
      return (
        Array.isArray(given) &&
        Array.isArray(known) &&
        given.length === known.length &&
        given.every((item, i) => sameValues(itemType, item, known[i]))
      );
    }
    const fields = types[type];
    if (fields !== undefined) {
      if (typeof given !== "object" || given === null || Array.isArray(given)) return false;
      const givenRecord = given as Record<string, unknown>;
      const knownRecord = known as Record<string, unknown>;
      return (
        Object.keys(givenRecord).length === fields.length &&
        fields.every(
          (field) =>
            Object.hasOwn(givenRecord, field.name) &&
            sameValues(field.type, givenRecord[field.name], knownRecord[field.name]),
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
  };

  return {
    hash(typedData: HashableTypedData): Hex {
      const digest = new Uint8Array(66);
      digest[0] = 0x19;
      digest[1] = 0x01;
      digest.set(domainSeparator(typedData.domain), 2);
      digest.set(hashStruct(typedData.primaryType, typedData.message), 34);
      return bytesToHex(keccak(digest));
    },
    /** True when `given`'s domain and message hold `known`'s values (same primary type): the same hash. */
    holdsSameValues(given: HashableTypedData, known: HashableTypedData): boolean {
      return (
        given.primaryType === known.primaryType &&
        sameValues("EIP712Domain", given.domain, known.domain) &&
        sameValues(known.primaryType, given.message, known.message)
      );
    },
  };
}

/** EIP-712 encodeType: the primary type, then every type it references, sorted by name. */
function encodeType(types: TypedDataTypes, primaryType: string): string {
  const found = new Set<string>();
  const visit = (type: string): void => {
    const base = type.replace(/\[\]$/, "");
    if (found.has(base) || types[base] === undefined) return;
    found.add(base);
    for (const field of types[base]!) visit(field.type);
  };
  visit(primaryType);
  found.delete(primaryType);
  return [primaryType, ...[...found].sort()]
    .map((name) => `${name}(${types[name]!.map((f) => `${f.type} ${f.name}`).join(",")})`)
    .join("");
}
