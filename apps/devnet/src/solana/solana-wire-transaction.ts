import { getBase58Decoder } from "@solana/kit";
import { invalidParams } from "./solana-rpc-error.js";

/** One instruction of a message, with indices into the message's account keys. */
export interface WireInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
}

/** A legacy or v0 transaction as it travels on the wire, parsed and sanitized. */
export interface WireTransaction {
  bytes: Uint8Array;
  version: "legacy" | 0;
  /** One per required signer, in account-key order. */
  signatures: Uint8Array[];
  messageBytes: Uint8Array;
  header: {
    numRequiredSignatures: number;
    numReadonlySignedAccounts: number;
    numReadonlyUnsignedAccounts: number;
  };
  accountKeys: string[];
  recentBlockhash: string;
  instructions: WireInstruction[];
  addressTableLookups: { accountKey: string; writableIndexes: number[]; readonlyIndexes: number[] }[];
}

const base58 = getBase58Decoder();

class Reader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}
  byte(): number {
    const byte = this.bytes[this.offset];
    if (byte === undefined) throw invalidParams("invalid transaction: unexpected end of data");
    this.offset += 1;
    return byte;
  }
  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length)
      throw invalidParams("invalid transaction: unexpected end of data");
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }
  /** Solana's compact-u16 ("shortvec"): up to three bytes, seven bits each. */
  compactU16(): number {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const byte = this.byte();
      value |= (byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) {
        if (value > 0xffff) break;
        return value;
      }
    }
    throw invalidParams("invalid transaction: bad compact-u16");
  }
  indices(): number[] {
    return Array.from(this.take(this.compactU16()));
  }
}

/** The largest serialized transaction a Solana node accepts (its packet data size). */
export const maxTransactionBytes = 1232;

/**
 * Parses a serialized transaction and checks what a node's sanitize step checks: one signature per
 * required signer, account indices in range, a fee payer that is writable and signs.
 */
export function parseWireTransaction(bytes: Uint8Array): WireTransaction {
  if (bytes.length > maxTransactionBytes)
    throw invalidParams(
      `invalid transaction: encoded solana_transaction::versioned::VersionedTransaction too large: ${bytes.length} bytes (max: ${maxTransactionBytes} bytes)`,
    );
  const reader = new Reader(bytes);
  const signatures: Uint8Array[] = [];
  const signatureCount = reader.compactU16();
  for (let i = 0; i < signatureCount; i++) signatures.push(reader.take(64));
  const messageStart = reader.offset;
  const first = reader.byte();
  let version: "legacy" | 0 = "legacy";
  let numRequiredSignatures = first;
  if (first & 0x80) {
    if ((first & 0x7f) !== 0)
      throw invalidParams(`invalid transaction: unsupported transaction version ${first & 0x7f}`);
    version = 0;
    numRequiredSignatures = reader.byte();
  }
  const numReadonlySignedAccounts = reader.byte();
  const numReadonlyUnsignedAccounts = reader.byte();
  const keyCount = reader.compactU16();
  const accountKeys: string[] = [];
  for (let i = 0; i < keyCount; i++) accountKeys.push(base58.decode(reader.take(32)));
  const recentBlockhash = base58.decode(reader.take(32));
  const instructionCount = reader.compactU16();
  const instructions: WireInstruction[] = [];
  for (let i = 0; i < instructionCount; i++) {
    const programIdIndex = reader.byte();
    const accounts = reader.indices();
    const data = reader.take(reader.compactU16());
    instructions.push({ programIdIndex, accounts, data });
  }
  const addressTableLookups: WireTransaction["addressTableLookups"] = [];
  if (version === 0) {
    const lookupCount = reader.compactU16();
    for (let i = 0; i < lookupCount; i++)
      addressTableLookups.push({
        accountKey: base58.decode(reader.take(32)),
        writableIndexes: reader.indices(),
        readonlyIndexes: reader.indices(),
      });
  }
  if (reader.offset !== bytes.length) throw invalidParams("invalid transaction: trailing bytes");
  const sanitizeFailure = (why: string) =>
    invalidParams(`invalid transaction: Transaction failed to sanitize accounts offsets correctly (${why})`);
  if (signatures.length !== numRequiredSignatures) throw sanitizeFailure("signature count");
  if (numRequiredSignatures === 0 || numRequiredSignatures > keyCount) throw sanitizeFailure("no fee payer");
  if (numReadonlySignedAccounts >= numRequiredSignatures) throw sanitizeFailure("read-only fee payer");
  if (numReadonlyUnsignedAccounts > keyCount - numRequiredSignatures) throw sanitizeFailure("header");
  if (new Set(accountKeys).size !== keyCount) throw sanitizeFailure("duplicate account key");
  const loadedCount = addressTableLookups.reduce(
    (sum, l) => sum + l.writableIndexes.length + l.readonlyIndexes.length,
    0,
  );
  for (const instruction of instructions) {
    if (instruction.programIdIndex === 0 || instruction.programIdIndex >= keyCount)
      throw sanitizeFailure("program index");
    if (instruction.accounts.some((index) => index >= keyCount + loadedCount))
      throw sanitizeFailure("account index");
  }
  return {
    bytes,
    version,
    signatures,
    messageBytes: bytes.subarray(messageStart),
    header: { numRequiredSignatures, numReadonlySignedAccounts, numReadonlyUnsignedAccounts },
    accountKeys,
    recentBlockhash,
    instructions,
    addressTableLookups,
  };
}
