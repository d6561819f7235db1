import { keccak256Bytes as keccak } from "../keccak.js";

export type TypedDataTypes = Readonly<
  Record<string, readonly { readonly name: string; readonly type: string }[]>
>;

/** How the fast path encodes (and compares) a value of one type (one object shape for every kind). */
export interface Encoding {
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

export interface StructPlan {
  typeHash: Uint8Array;
  fields: { name: string; encoding: Encoding }[];
  /** The type hash and one word per field. */
  size: number;
  /** Only address, bytes32 and uint fields: the last values hashed and their hash, kept. */
  leaf: LeafMemo | undefined;
}

export interface LeafMemo {
  /** The values being read, then (once hashed) the values of `hash`. */
  next: unknown[];
  last: unknown[];
  hash: Uint8Array;
  known: boolean;
}

/** What one hasher keeps between hashes: its types, their hashes and plans, the caches and the scratch buffer. */
export interface TypedDataHasherState {
  readonly types: TypedDataTypes;
  readonly typeHashes: Map<string, Uint8Array>;
  readonly domainSeparators: Map<string, Uint8Array>;
  readonly domainCacheSize: number;
  /** The fast path's plan of each type named in `types`. */
  readonly encodings: Map<string, Encoding>;
  /**
   * Bytes [0, 66) hold the digest's input; each struct or array takes the next free bytes for its
   * words while it is encoded. Hashing is synchronous, so one buffer per hasher serves every hash.
   */
  scratch: Uint8Array;
  hashing: boolean;
  /** Quotes of one round share their domain: its last values and separator are kept aside. */
  readonly domainFields: readonly string[];
  lastDomain: unknown[] | undefined;
  lastSeparator: Uint8Array;
}

export const EMPTY_BYTES_HASH = keccak(new Uint8Array(0));
export const textEncoder = new TextEncoder();

/** The fields of a type named in `types`; a name it does not hold is an error of the caller's. */
export function typeFields(types: TypedDataTypes, type: string): readonly { name: string; type: string }[] {
  const fields = types[type];
  if (fields === undefined) throw new Error(`typed data hasher: unknown type ${type}`);
  return fields;
}

/** EIP-712 encodeType: the primary type, then every type it references, sorted by name. */
export function encodeType(types: TypedDataTypes, primaryType: string): string {
  const found = new Set<string>();
  const visit = (type: string): void => {
    const base = type.replace(/\[\]$/, "");
    const fields = types[base];
    if (found.has(base) || fields === undefined) return;
    found.add(base);
    for (const field of fields) visit(field.type);
  };
  visit(primaryType);
  found.delete(primaryType);
  return [primaryType, ...[...found].sort()]
    .map(
      (name) =>
        `${name}(${typeFields(types, name)
          .map((f) => `${f.type} ${f.name}`)
          .join(",")})`,
    )
    .join("");
}

export function createTypedDataHasherState(
  types: TypedDataTypes,
  domainCacheSize: number,
): TypedDataHasherState {
  const typeHashes = new Map<string, Uint8Array>();
  for (const primaryType of Object.keys(types)) {
    typeHashes.set(primaryType, keccak(textEncoder.encode(encodeType(types, primaryType))));
  }
  return {
    types,
    typeHashes,
    domainSeparators: new Map(),
    domainCacheSize,
    encodings: new Map(),
    scratch: new Uint8Array(2048),
    hashing: false,
    domainFields: (types.EIP712Domain ?? []).map((field) => field.name),
    lastDomain: undefined,
    lastSeparator: EMPTY_BYTES_HASH,
  };
}
