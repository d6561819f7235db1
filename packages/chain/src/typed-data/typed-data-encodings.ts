import type { Encoding, StructPlan, TypedDataHasherState } from "./typed-data-hasher-state.js";

// The fast path's plans: each type named in `types` resolved once, the way the generic encoder and
// sameValues dispatch on it; another name is resolved on each use and not kept.

function resolve(state: TypedDataHasherState, type: string, keep: boolean): Encoding {
  const { types, typeHashes, encodings } = state;
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
    encoding.item = resolve(state, type.slice(0, -2), keep);
  } else if (typeHashes.has(type) || types[type] !== undefined) {
    const fields = Object.hasOwn(types, type) ? types[type] : undefined;
    const typeHash = typeHashes.get(type);
    if (typeHash === undefined || !Array.isArray(fields)) {
      encoding.kind = "generic";
    } else {
      const struct: StructPlan = {
        typeHash,
        fields: [],
        size: 32 * (fields.length + 1),
        leaf: undefined,
      };
      encoding.kind = "struct";
      encoding.struct = struct;
      encodings.set(type, encoding);
      for (const field of fields)
        struct.fields.push({ name: field.name, encoding: resolve(state, field.type, true) });
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
}

/** Plans every type the hasher was made with. */
export function resolveEncodings(state: TypedDataHasherState): void {
  for (const type of state.typeHashes.keys()) resolve(state, type, true);
}

export function encodingOf(state: TypedDataHasherState, type: string): Encoding {
  return state.encodings.get(type) ?? resolve(state, type, false);
}
