import { getBase58Decoder, getBase58Encoder } from "@solana/kit";

export const base58 = getBase58Decoder();
const base58Bytes = getBase58Encoder();

export function decodeBase58Bytes(text: string): Uint8Array {
  return Uint8Array.from(base58Bytes.encode(text));
}
