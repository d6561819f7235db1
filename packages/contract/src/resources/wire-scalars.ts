import { z } from "zod";

/** CAIP-2 chain domain, e.g. `eip155:31337` or `solana:<32 chars of the genesis hash>`; case-sensitive. */
export const chainDomainSchema = z
  .string()
  .regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, "must be a CAIP-2 chain domain such as eip155:1")
  .max(41)
  .meta({ id: "ChainDomain", description: "CAIP-2 chain domain, e.g. `eip155:31337`. Case-sensitive." });

/** The longest CAIP-19 key the pattern admits: 8 + 1 + 32 + 1 + 8 + 1 + 128 + 1 + 78 characters. */
const ASSET_KEY_MAX_LENGTH = 258;

/** CAIP-19 asset key, e.g. `eip155:31337/erc20:0xabc...` or the native coin `eip155:31337/slip44:60`. */
export const assetKeySchema = z
  .string()
  .regex(
    /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}\/[-a-z0-9]{3,8}:[-.%a-zA-Z0-9]{1,128}(\/[-.%a-zA-Z0-9]{1,78})?$/,
    "must be a CAIP-19 asset key such as eip155:1/erc20:0x...",
  )
  .max(ASSET_KEY_MAX_LENGTH)
  .meta({
    id: "AssetKey",
    description:
      "CAIP-19 asset key as the catalog lists it, e.g. `eip155:31337/erc20:0x…` (address lowercase) or `eip155:31337/slip44:60` for the native coin.",
  });

const UINT256_MAX = (1n << 256n) - 1n;
/** 2^256-1 has 78 decimal digits. */
const BASE_UNITS_MAX_LENGTH = 78;

/** Only a string the pattern admitted (at most 78 digits) is parsed: BigInt of a long string costs time. */
function isWithinUint256(value: string): boolean {
  return value.length > BASE_UNITS_MAX_LENGTH || !/^[0-9]+$/.test(value) || BigInt(value) <= UINT256_MAX;
}

/** A non-negative integer amount in base units as a decimal string, no sign, no leading zeros, at most 2^256-1. */
export const baseUnitsSchema = z
  .string()
  .regex(/^(0|[1-9][0-9]{0,77})$/, "must be a decimal string of base units without sign or leading zeros")
  .max(BASE_UNITS_MAX_LENGTH)
  .refine(isWithinUint256, "must not exceed 2^256-1")
  .meta({
    id: "BaseUnits",
    description:
      "Amount in the asset's base units as a decimal string (no sign, no leading zeros, ≤ 2^256-1).",
  });

/** A positive amount in base units (decimal string greater than zero, at most 2^256-1). */
export const positiveBaseUnitsSchema = z
  .string()
  .regex(
    /^[1-9][0-9]{0,77}$/,
    "must be a decimal string of base units greater than 0, without sign or leading zeros",
  )
  .max(BASE_UNITS_MAX_LENGTH)
  .refine(isWithinUint256, "must not exceed 2^256-1")
  .meta({
    id: "PositiveBaseUnits",
    description:
      "Amount in base units as a decimal string greater than 0 (no sign, no leading zeros, ≤ 2^256-1).",
  });

function isRealInstant(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/** RFC 3339 UTC timestamp with milliseconds, e.g. `2026-01-02T03:04:05.678Z`. */
export const timestampSchema = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/,
    "must be an RFC 3339 UTC timestamp with milliseconds",
  )
  .refine(isRealInstant, "must be a real date and time")
  .meta({
    id: "Timestamp",
    description: "RFC 3339 UTC timestamp with milliseconds, e.g. `2026-01-02T03:04:05.678Z`.",
  });

/** A 32-byte value as lowercase 0x hex: on-chain order ids, transaction hashes, artifact hashes. */
export const hex32Schema = z
  .string()
  .regex(/^0x[0-9a-f]{64}$/, "must be 32 bytes as lowercase 0x-prefixed hex")
  .max(66)
  .meta({ id: "Hex32", description: "32 bytes as lowercase `0x`-prefixed hex." });

/** A Solana transaction signature: 64 bytes in base58. */
export const solanaSignatureSchema = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, "must be a Solana transaction signature (base58)")
  .max(88)
  .meta({ id: "SolanaSignature", description: "A Solana transaction signature: 64 bytes in base58." });

/** Arbitrary bytes as lowercase 0x hex (calldata, callback data). */
export const hexDataSchema = z
  .string()
  .regex(/^0x([0-9a-f]{2})*$/, "must be bytes as lowercase 0x-prefixed hex")
  .meta({ id: "HexData", description: "Bytes as lowercase `0x`-prefixed hex (`0x` when empty)." });

/** A 20-byte EVM address as lowercase 0x hex, as the hub writes it in its answers. */
export const evmAddressSchema = z
  .string()
  .regex(/^0x[0-9a-f]{40}$/, "must be a lowercase 0x-prefixed 20-byte address")
  .meta({ id: "EvmAddress", description: "EVM address, lowercase `0x`-prefixed hex." });

/** Longest account accepted: generous over an EVM address (42) and a Solana key (32 to 44). */
export const ACCOUNT_MAX_LENGTH = 128;

/** An account on any chain family: an EVM address (0x hex) or a base58 Solana public key. */
export const accountSchema = z
  .string()
  .min(1)
  .max(ACCOUNT_MAX_LENGTH, `must be at most ${ACCOUNT_MAX_LENGTH} characters`)
  .meta({
    id: "Account",
    description:
      "An account on its chain: `0x` hex on EVM chains, base58 public key on Solana; at most 128 characters.",
  });

/** A block height as a non-negative integer. */
export const blockNumberSchema = z.number().int().nonnegative();
