import jsSha3 from "js-sha3";

/**
 * keccak-256 by js-sha3, about five times faster than viem's (noble) on the short inputs of typed
 * data and order ids; the tests of the typed data hasher and of orderIdentifier hold it to viem's.
 */
export function keccak256Bytes(bytes: Uint8Array): Uint8Array {
  return new Uint8Array(jsSha3.keccak256.arrayBuffer(bytes));
}
