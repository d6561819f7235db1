const BASE58_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** The longest base58 text of 32 bytes. */
export const SOLANA_ADDRESS_MAX_LENGTH = 44;

/**
 * The bytes a base58 string (Bitcoin alphabet) decodes to, or undefined when it does not decode.
 * Quadratic in the length: callers bound the input first.
 */
export function decodeBase58(value: string): Uint8Array | undefined {
  if (value.length === 0) return undefined;
  let number = 0n;
  for (const char of value) {
    const digit = BASE58_ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    number = number * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (number > 0n) {
    bytes.unshift(Number(number & 0xffn));
    number >>= 8n;
  }
  for (const char of value) {
    if (char !== "1") break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** True when the value is a Solana public key: base58 that decodes to exactly 32 bytes. */
export function isSolanaAddress(value: string): boolean {
  return value.length <= SOLANA_ADDRESS_MAX_LENGTH && decodeBase58(value)?.length === 32;
}
