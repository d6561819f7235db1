import { QuoteRejection, type QuoteRejectionReason } from "../../quotes/quote-rejection.js";

const UINT256_MAX = (1n << 256n) - 1n;
const UINT32_MAX = (1n << 32n) - 1n;

/** A uint as EIP-712 JSON carries it (a safe integer or a decimal string), or a rejection. */
export function readUint(value: unknown, what: string, reason: QuoteRejectionReason, bits = 256): bigint {
  let parsed: bigint | undefined;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) parsed = BigInt(value);
  else if (typeof value === "string" && /^(0|[1-9][0-9]{0,77})$/.test(value)) parsed = BigInt(value);
  const max = bits === 256 ? UINT256_MAX : bits === 32 ? UINT32_MAX : (1n << BigInt(bits)) - 1n;
  if (parsed === undefined || parsed > max) {
    throw new QuoteRejection(reason, `${what} is not a uint${bits}: ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** A 20-byte address (any case) as lowercase 0x hex, or a rejection. */
export function readAddress(value: unknown, what: string, reason: QuoteRejectionReason): `0x${string}` {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw new QuoteRejection(reason, `${what} is not an address: ${JSON.stringify(value)}`);
  }
  return value.toLowerCase() as `0x${string}`;
}

/** 32 bytes (any case) as lowercase 0x hex, or a rejection. */
export function readBytes32(value: unknown, what: string, reason: QuoteRejectionReason): `0x${string}` {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(value)) {
    throw new QuoteRejection(reason, `${what} is not bytes32: ${JSON.stringify(value)}`);
  }
  return value.toLowerCase() as `0x${string}`;
}

/** Dynamic bytes (any case) as lowercase 0x hex, or a rejection. */
export function readBytes(value: unknown, what: string, reason: QuoteRejectionReason): `0x${string}` {
  if (typeof value !== "string" || !/^0x([0-9a-fA-F]{2})*$/.test(value)) {
    throw new QuoteRejection(reason, `${what} is not bytes: ${JSON.stringify(value)}`);
  }
  return value.toLowerCase() as `0x${string}`;
}

/** A plain object, or a rejection. */
export function readObject(
  value: unknown,
  what: string,
  reason: QuoteRejectionReason,
): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new QuoteRejection(reason, `${what} is not an object`);
  }
  return value as Record<string, unknown>;
}

/** An array of exactly `length` items, or a rejection. */
export function readArray(
  value: unknown,
  what: string,
  reason: QuoteRejectionReason,
  length: number,
): unknown[] {
  if (!Array.isArray(value) || value.length !== length) {
    throw new QuoteRejection(reason, `${what} must hold exactly ${length} item(s)`);
  }
  return value;
}

/** Fails unless the object has exactly these keys (a stray key would change what is signed). */
export function requireKeys(
  value: Record<string, unknown>,
  keys: readonly string[],
  what: string,
  reason: QuoteRejectionReason,
): void {
  const have = Object.keys(value);
  // The keys are distinct on both sides: the same count and each wanted key present is the same set.
  if (have.length === keys.length && keys.every((key) => have.includes(key))) return;
  const want = [...keys].sort();
  throw new QuoteRejection(reason, `${what} has keys ${have.sort().join(",")}, expected ${want.join(",")}`);
}
