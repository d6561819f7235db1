import { HubError } from "./errors.js";
import type { SolanaWallet } from "./solana-wallet.js";

/** The Solana lane's sign payload: the message to sign, its checksum, the user and the solver. */
export interface SolanaSignPayload {
  transactionMessage: string;
  digest: string;
  sender: string;
  feePayer: string;
}

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/** The scheme byte that opens the envelope. */
const ENVELOPE_PREFIX = 0x00;
/** 0x00, the 64-byte Ed25519 signature, the 32-byte public key. */
export const SOLANA_ENVELOPE_BYTES = 97;

/** Base58 (Bitcoin alphabet) of bytes. */
export function encodeBase58(bytes: Uint8Array): string {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  const digits: number[] = [];
  for (const byte of bytes.subarray(zeros)) {
    let carry = byte;
    digits.forEach((digit, j) => {
      carry += digit << 8;
      digits[j] = carry % 58;
      carry = (carry / 58) | 0;
    });
    while (carry > 0) {
      digits.push(carry % 58);
      carry = (carry / 58) | 0;
    }
  }
  let text = "1".repeat(zeros);
  for (const digit of digits.reverse()) text += ALPHABET[digit];
  return text;
}

/** The 32 bytes of a base58 Solana public key, or undefined when it is not one (length checked first). */
export function solanaPublicKeyBytes(address: string): Uint8Array | undefined {
  if (address.length === 0 || address.length > 44) return undefined;
  let zeros = 0;
  while (zeros < address.length && address[zeros] === "1") zeros++;
  const bytes: number[] = [];
  for (const character of address.slice(zeros)) {
    let carry = ALPHABET.indexOf(character);
    if (carry < 0) return undefined;
    bytes.forEach((byte, j) => {
      carry += byte * 58;
      bytes[j] = carry & 0xff;
      carry >>= 8;
    });
    while (carry > 0) {
      bytes.push(carry & 0xff);
      carry >>= 8;
    }
  }
  const out = new Uint8Array(zeros + bytes.length);
  out.set(bytes.reverse(), zeros);
  return out.length === 32 ? out : undefined;
}

/** The bytes of standard base64 (padded), or undefined when the text is not that. */
export function decodeBase64(text: string): Uint8Array | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

/** Standard base64 (padded) of bytes. */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The payload's checksum as the hub computes it: base58 of SHA-256 of the message bytes (WebCrypto). */
export async function solanaMessageDigest(message: Uint8Array): Promise<string> {
  // A copy on its own ArrayBuffer: the DOM's BufferSource refuses a view that may sit on a SharedArrayBuffer.
  return encodeBase58(new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(message))));
}

function refuse(code: string, message: string): never {
  throw new HubError({ code, status: 0, message });
}

/**
 * Signs a Solana sign payload with the wallet and returns the 97-byte envelope (0x00, the Ed25519
 * signature over the base64-decoded transactionMessage, the wallet's public key) as standard base64.
 * Refuses before signing when the message does not decode, when the wallet is not the payload's sender
 * (nor the quote's sourceAccount, when given), or when `digest` is not the message's checksum: it never
 * signs what the quote did not disclose.
 */
export async function signSolanaPayload(
  payload: SolanaSignPayload,
  wallet: SolanaWallet,
  sourceAccount?: string,
): Promise<string> {
  const message = typeof payload?.transactionMessage === "string" && decodeBase64(payload.transactionMessage);
  if (!message || message.length === 0) {
    refuse("ESDK_NOT_COMPLETABLE", "the sign payload carries no standard base64 transactionMessage");
  }
  const publicKey = solanaPublicKeyBytes(wallet.address);
  if (!publicKey) refuse("ESDK_WALLET", `the wallet's address ${wallet.address} is no Solana public key`);
  if (
    payload.sender !== wallet.address ||
    (sourceAccount !== undefined && sourceAccount !== wallet.address)
  ) {
    refuse(
      "ESDK_SENDER_MISMATCH",
      `the payload's sender ${payload.sender} is not the wallet ${wallet.address}: not signed`,
    );
  }
  const digest = await solanaMessageDigest(message);
  if (payload.digest !== digest) {
    refuse(
      "ESDK_DIGEST_MISMATCH",
      `the payload's digest ${payload.digest} is not the message's checksum ${digest}: not signed`,
    );
  }
  const signature = await wallet.signEd25519(message);
  if (!(signature instanceof Uint8Array) || signature.length !== 64) {
    refuse("ESDK_WALLET", "the wallet's Ed25519 signature is not 64 bytes");
  }
  const envelope = new Uint8Array(SOLANA_ENVELOPE_BYTES);
  envelope[0] = ENVELOPE_PREFIX;
  envelope.set(signature, 1);
  envelope.set(publicKey, 65);
  return encodeBase64(envelope);
}
