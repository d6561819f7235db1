import type { Hex } from "viem";
import { bytesToHex } from "viem";
import { keccak256Bytes as keccak } from "./keccak.js";
import { domainSeparator, hashStruct } from "./typed-data/generic-typed-data.js";
import { type HashableTypedData, hashPlain, sameValuesPlain } from "./typed-data/plain-typed-data.js";
import { encodingOf, resolveEncodings } from "./typed-data/typed-data-encodings.js";
import { createTypedDataHasherState, type TypedDataTypes } from "./typed-data/typed-data-hasher-state.js";

export type { HashableTypedData };

/** The hash and the value comparison of typed data under one fixed set of types. */
export interface TypedDataHasher {
  hash(typedData: HashableTypedData): Hex;
  /** True when `given`'s domain and message hold `known`'s values (same primary type): the same hash. */
  holdsSameValues(given: HashableTypedData, known: HashableTypedData): boolean;
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
 * whole hash to the generic encoder (`typed-data/generic-typed-data.ts`), which decides what it means
 * (or throws).
 */
export function createTypedDataHasher(types: TypedDataTypes, domainCacheSize = 256): TypedDataHasher {
  const state = createTypedDataHasherState(types, domainCacheSize);
  resolveEncodings(state);
  return {
    hash(typedData) {
      if (!state.hashing) {
        state.hashing = true;
        try {
          const hash = hashPlain(state, typedData);
          if (hash !== undefined) return hash;
        } finally {
          state.hashing = false;
        }
      }
      const digest = new Uint8Array(66);
      digest[0] = 0x19;
      digest[1] = 0x01;
      digest.set(domainSeparator(state, typedData.domain), 2);
      digest.set(hashStruct(state, typedData.primaryType, typedData.message), 34);
      return bytesToHex(keccak(digest));
    },
    holdsSameValues(given, known) {
      return (
        given.primaryType === known.primaryType &&
        sameValuesPlain(state, encodingOf(state, "EIP712Domain"), given.domain, known.domain) &&
        sameValuesPlain(state, encodingOf(state, known.primaryType), given.message, known.message)
      );
    },
  };
}
