import { bytesToHex, type Hex } from "viem";
import { hexBytes, setHexBytes, setUint256, writeWholeHex } from "./hex-bytes.js";
import { keccak256Bytes as keccak, keccak256Into } from "./keccak.js";

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

/** How the fast path encodes (and compares) a value of one type (one object shape for every kind). */
interface Encoding {
  /** "generic": a name the generic code reads two ways (inherited from Object, or not a field list). */
  kind: "array" | "struct" | "address" | "bytes32" | "bytes" | "string" | "uint" | "unsupported" | "generic";
  type: string;
  /** An array's items. */
  item: Encoding | undefined;
  struct: StructPlan | undefined;
  /** Named uint-something: a number and its decimal string compare equal. */
  uintLike: boolean;
  /** An array's last words hashed (items of one round's quotes often repeat) and their hash. */
  lastWords: Uint8Array | undefined;
  lastHash: Uint8Array;
}

interface StructPlan {
  typeHash: Uint8Array;
  fields: { name: string; encoding: Encoding }[];
  /** The type hash and one word per field. */
  size: number;
  /** Only address, bytes32 and uint fields: the last values hashed and their hash, kept. */
  leaf: LeafMemo | undefined;
}

interface LeafMemo {
  /** The values being read, then (once hashed) the values of `hash`. */
  next: unknown[];
  last: unknown[];
  hash: Uint8Array;
  known: boolean;
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

/**
 * The EIP-712 hash of typed data under one fixed set of `types` (which include `EIP712Domain`), equal
 * to viem's `hashTypedData` for the types this supports (address, uintN, bytes32, bytes, string, structs
 * and arrays of structs): each type's hash is computed once, and each domain's separator is kept (up to
 * `domainCacheSize` domains), so a hash costs only the keccaks of the message's own structs. Values are
 * not validated: callers pass typed data they built themselves from checked values.
 *
 * Values in their plain form (lowercase or mixed-case 0x hex of the type's length, safe integers,
 * decimal strings) are written into one scratch buffer reused by every hash; any other value sends the
 * whole hash to the generic encoder below, which decides what it means (or throws).
 */
export function createTypedDataHasher(types: TypedDataTypes, domainCacheSize = 256) {
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

  // The fast path: each type named in `types` resolved once, the way encodeValue and sameValues
  // dispatch on it; another name is resolved on each use and not kept.
  const encodings = new Map<string, Encoding>();
  const resolve = (type: string, keep: boolean): Encoding => {
    const known = encodings.get(type);
    if (known !== undefined) return known;
    const isArray = type.endsWith("[]");
    const encoding: Encoding = {
      kind: "unsupported",
      type,
      item: undefined,
      struct: undefined,
      uintLike: type.startsWith("uint"),
      lastWords: undefined,
      lastHash: new Uint8Array(32),
    };
    if (isArray) {
      encoding.kind = "array";
      encoding.item = resolve(type.slice(0, -2), keep);
    } else if (typeHashes.has(type) || types[type] !== undefined) {
      const fields = Object.hasOwn(types, type) ? types[type] : undefined;
      if (!typeHashes.has(type) || !Array.isArray(fields)) {
        encoding.kind = "generic";
      } else {
        const struct: StructPlan = {
          typeHash: typeHashes.get(type)!,
          fields: [],
          size: 32 * (fields.length + 1),
          leaf: undefined,
        };
        encoding.kind = "struct";
        encoding.struct = struct;
        encodings.set(type, encoding);
        for (const field of fields)
          struct.fields.push({ name: field.name, encoding: resolve(field.type, true) });
        if (
          struct.fields.every(
            ({ encoding: { kind } }) => kind === "address" || kind === "bytes32" || kind === "uint",
          )
        ) {
          struct.leaf = {
            next: new Array(fields.length),
            last: new Array(fields.length),
            hash: new Uint8Array(32),
            known: false,
          };
        }
      }
    } else if (["address", "bytes32", "bytes", "string"].includes(type)) {
      encoding.kind = type as "address" | "bytes32" | "bytes" | "string";
    } else if (/^uint(8|16|32|64|128|256)$/.test(type)) {
      encoding.kind = "uint";
    }
    if (keep) encodings.set(type, encoding);
    return encoding;
  };
  for (const type of typeHashes.keys()) resolve(type, true);
  const encodingOf = (type: string): Encoding => encodings.get(type) ?? resolve(type, false);

  // Bytes [0, 66) hold the digest's input; each struct or array takes the next free bytes for its
  // words while it is encoded. Hashing is synchronous, so one buffer per hasher serves every hash.
  let scratch = new Uint8Array(2048);
  let hashing = false;
  const room = (end: number): void => {
    if (end <= scratch.length) return;
    const larger = new Uint8Array(Math.max(end, 2 * scratch.length));
    larger.set(scratch);
    scratch = larger;
  };

  /** Writes the word of `value` at `slot`, using bytes from `free` on; false if it is not a plain value. */
  const writeValue = (encoding: Encoding, value: unknown, slot: number, free: number): boolean => {
    switch (encoding.kind) {
      case "address":
        return typeof value === "string" && value.length === 42 && writeWholeHex(scratch, slot + 12, value);
      case "bytes32":
        return typeof value === "string" && value.length === 66 && writeWholeHex(scratch, slot, value);
      case "uint":
        if (typeof value === "number") {
          if (!Number.isSafeInteger(value) || value < 0) return false;
          setUint256(scratch, slot, value);
          return true;
        }
        if (typeof value !== "string" || !isShortDecimal(value)) return false;
        setUint256(scratch, slot, value.length <= 15 ? Number(value) : BigInt(value));
        return true;
      case "bytes": {
        if (value === "0x") {
          scratch.set(EMPTY_BYTES_HASH, slot);
          return true;
        }
        if (typeof value !== "string" || (value.length & 1) === 1) return false;
        const end = free + (value.length - 2) / 2;
        room(end);
        if (!writeWholeHex(scratch, free, value)) return false;
        keccak256Into(scratch, free, end, scratch, slot);
        return true;
      }
      case "string":
        if (typeof value !== "string") return false;
        scratch.set(keccak(textEncoder.encode(value)), slot);
        return true;
      case "struct":
        return writeStruct(encoding.struct!, value, slot, free);
      case "array": {
        if (!Array.isArray(value)) return false;
        const end = free + 32 * value.length;
        room(end);
        scratch.fill(0, free, end);
        for (let i = 0; i < value.length; i += 1) {
          if (!writeValue(encoding.item!, value[i], free + 32 * i, end)) return false;
        }
        const last = encoding.lastWords;
        if (last !== undefined && last.length === end - free && sameBytes(last, free)) {
          scratch.set(encoding.lastHash, slot);
          return true;
        }
        keccak256Into(scratch, free, end, scratch, slot);
        encoding.lastWords = scratch.slice(free, end);
        encoding.lastHash.set(scratch.subarray(slot, slot + 32));
        return true;
      }
      default:
        return false;
    }
  };

  const sameBytes = (bytes: Uint8Array, at: number): boolean => {
    for (let i = 0; i < bytes.length; i += 1) if (scratch[at + i] !== bytes[i]) return false;
    return true;
  };

  // A struct of plain words whose values are, one for one, the very values it last hashed (the same
  // token and amount in every quote of a round) takes that hash again.
  const writeLeafStruct = (struct: StructPlan, leaf: LeafMemo, data: object, slot: number, free: number) => {
    const { fields } = struct;
    const { next, last } = leaf;
    let same = leaf.known;
    for (let i = 0; i < fields.length; i += 1) {
      next[i] = (data as Record<string, unknown>)[fields[i]!.name];
      same = same && next[i] === last[i];
    }
    if (same) {
      scratch.set(leaf.hash, slot);
      return true;
    }
    const end = free + struct.size;
    room(end);
    scratch.set(struct.typeHash, free);
    scratch.fill(0, free + 32, end);
    for (let i = 0; i < fields.length; i += 1) {
      if (!writeValue(fields[i]!.encoding, next[i], free + 32 * (i + 1), end)) return false;
    }
    keccak256Into(scratch, free, end, scratch, slot);
    leaf.hash.set(scratch.subarray(slot, slot + 32));
    leaf.next = last;
    leaf.last = next;
    leaf.known = true;
    return true;
  };

  const writeStruct = (struct: StructPlan, data: unknown, slot: number, free: number): boolean => {
    if (typeof data !== "object" || data === null) return false;
    if (struct.leaf !== undefined) return writeLeafStruct(struct, struct.leaf, data, slot, free);
    const end = free + struct.size;
    room(end);
    scratch.set(struct.typeHash, free);
    scratch.fill(0, free + 32, end);
    const { fields } = struct;
    for (let i = 0; i < fields.length; i += 1) {
      const field = fields[i]!;
      const value = (data as Record<string, unknown>)[field.name];
      if (!writeValue(field.encoding, value, free + 32 * (i + 1), end)) return false;
    }
    keccak256Into(scratch, free, end, scratch, slot);
    return true;
  };

  // Quotes of one round share their domain: its last values and separator are kept aside.
  const domainFields = (types.EIP712Domain ?? []).map((field) => field.name);
  let lastDomain: unknown[] | undefined;
  let lastSeparator = EMPTY_BYTES_HASH;
  const knownDomainSeparator = (domain: Record<string, unknown>): Uint8Array => {
    if (lastDomain !== undefined) {
      let same = true;
      for (let i = 0; i < domainFields.length && same; i += 1)
        same = domain[domainFields[i]!] === lastDomain[i];
      if (same) return lastSeparator;
    }
    const separator = domainSeparator(domain);
    const values = domainFields.map((name) => domain[name]);
    lastDomain = values.every((value) => typeof value !== "object" && typeof value !== "function")
      ? values
      : undefined;
    lastSeparator = separator;
    return separator;
  };

  const hashPlain = (typedData: HashableTypedData): Hex | undefined => {
    const { domain, primaryType } = typedData;
    if (typeof primaryType !== "string" || typeof domain !== "object" || domain === null) return undefined;
    const message = encodingOf(primaryType);
    if (message.kind !== "struct") return undefined;
    const separator = knownDomainSeparator(domain);
    if (!writeStruct(message.struct!, typedData.message, 34, 66)) return undefined;
    scratch[0] = 0x19;
    scratch[1] = 0x01;
    scratch.set(separator, 2);
    return bytesToHex(keccak(scratch.subarray(0, 66)));
  };

  const sameValuesPlain = (encoding: Encoding, given: unknown, known: unknown): boolean => {
    if (encoding.kind === "array") {
      if (!Array.isArray(given) || !Array.isArray(known) || given.length !== known.length) return false;
      // As Array.prototype.every: a hole in `given` is skipped.
      for (let i = 0; i < given.length; i += 1) {
        if (i in given && !sameValuesPlain(encoding.item!, given[i], known[i])) return false;
      }
      return true;
    }
    if (encoding.kind === "struct") {
      if (typeof given !== "object" || given === null || Array.isArray(given)) return false;
      const givenRecord = given as Record<string, unknown>;
      const knownRecord = known as Record<string, unknown>;
      const { fields } = encoding.struct!;
      if (Object.keys(givenRecord).length !== fields.length) return false;
      for (let i = 0; i < fields.length; i += 1) {
        const { name, encoding: fieldEncoding } = fields[i]!;
        if (!Object.hasOwn(givenRecord, name)) return false;
        if (!sameValuesPlain(fieldEncoding, givenRecord[name], knownRecord[name])) return false;
      }
      return true;
    }
    if (encoding.kind === "generic") return sameValues(encoding.type, given, known);
    if (given === known) return true;
    return (
      encoding.uintLike &&
      (typeof given === "number" || typeof given === "string") &&
      (typeof known === "number" || typeof known === "string") &&
      String(given) === String(known)
    );
  };

  return {
    hash(typedData: HashableTypedData): Hex {
      if (!hashing) {
        hashing = true;
        try {
          const hash = hashPlain(typedData);
          if (hash !== undefined) return hash;
        } finally {
          hashing = false;
        }
      }
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
        sameValuesPlain(encodingOf("EIP712Domain"), given.domain, known.domain) &&
        sameValuesPlain(encodingOf(known.primaryType), given.message, known.message)
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

export type TypedDataHasher = ReturnType<typeof createTypedDataHasher>;
