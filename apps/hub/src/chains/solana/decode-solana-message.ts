import { encodeBase58 } from "@hub/chain";
import { QuoteRejection } from "../../quotes/quote-rejection.js";

/** The largest transaction Solana takes is 1232 bytes; its message is smaller still. */
export const SOLANA_MESSAGE_MAX_BYTES = 1232;

/** One compiled instruction: its program and accounts as indices into the message's static accounts. */
export interface SolanaCompiledInstruction {
  programIndex: number;
  accountIndices: number[];
  data: Uint8Array;
}

/** A v0 transaction message as its bytes say it, accounts as base58. */
export interface SolanaCompiledMessage {
  requiredSignatures: number;
  readonlySigned: number;
  readonlyUnsigned: number;
  accounts: string[];
  recentBlockhash: string;
  instructions: SolanaCompiledInstruction[];
  lookupTableCount: number;
}

function fail(detail: string): never {
  throw new QuoteRejection("message", detail);
}

/**
 * Decodes the bytes of a v0 transaction message (version prefix 0x80, header, static accounts, recent
 * blockhash, instructions, address table lookups), in one pass bounded by its length. Shortvec lengths
 * must be canonical and nothing may follow the message: the bytes the user signs are exactly these.
 */
export function decodeSolanaMessage(bytes: Uint8Array): SolanaCompiledMessage {
  if (bytes.length > SOLANA_MESSAGE_MAX_BYTES) fail(`message of ${bytes.length} bytes`);
  let at = 0;
  const byte = (): number => {
    if (at >= bytes.length) fail("message ends early");
    return bytes[at++]!;
  };
  const take = (length: number): Uint8Array => {
    if (at + length > bytes.length) fail("message ends early");
    const slice = bytes.subarray(at, at + length);
    at += length;
    return slice;
  };
  const shortVec = (): number => {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const b = byte();
      value |= (b & 0x7f) << (7 * i);
      if ((b & 0x80) === 0) {
        if (i > 0 && b === 0) fail("non-canonical length");
        if (value > 0xffff) fail("length over u16");
        return value;
      }
    }
    return fail("length over three bytes");
  };

  if (byte() !== 0x80) fail("not a v0 message");
  const requiredSignatures = byte();
  const readonlySigned = byte();
  const readonlyUnsigned = byte();
  const accountCount = shortVec();
  const accounts: string[] = [];
  for (let i = 0; i < accountCount; i++) accounts.push(encodeBase58(take(32)));
  const recentBlockhash = encodeBase58(take(32));
  const instructionCount = shortVec();
  const instructions: SolanaCompiledInstruction[] = [];
  for (let i = 0; i < instructionCount; i++) {
    const programIndex = byte();
    const accountIndices = Array.from(take(shortVec()));
    const data = take(shortVec());
    instructions.push({ programIndex, accountIndices, data });
  }
  const lookupTableCount = shortVec();
  for (let i = 0; i < lookupTableCount; i++) {
    take(32);
    take(shortVec());
    take(shortVec());
  }
  if (at !== bytes.length) fail(`${bytes.length - at} bytes after the message`);
  return {
    requiredSignatures,
    readonlySigned,
    readonlyUnsigned,
    accounts,
    recentBlockhash,
    instructions,
    lookupTableCount,
  };
}
