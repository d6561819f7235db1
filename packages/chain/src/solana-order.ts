import { createHash } from "node:crypto";
import { encodeAbiParameters, type Hex, keccak256 } from "viem";
import { type MandateOutput, mandateOutputAbiParameter } from "./standard-order.js";

// The Solana lane's shared identities and hashes; the wire contract is docs/decisions/solana-lane.md.

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
const DIGITS = new Int8Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DIGITS[ALPHABET.charCodeAt(i)] = i;

/** The longest base58 text this module decodes: a 64-byte key pair is at most 88 characters. */
export const BASE58_MAX_LENGTH = 90;

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

/**
 * The bytes of base58 text, or undefined when it does not decode or is longer than `maxLength`
 * (BASE58_MAX_LENGTH unless given): the length is checked before any work, so the cost is bounded.
 */
export function decodeBase58(text: string, maxLength = BASE58_MAX_LENGTH): Uint8Array | undefined {
  if (text.length === 0 || text.length > maxLength) return undefined;
  let zeros = 0;
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++;
  const bytes: number[] = [];
  for (let i = zeros; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let carry = DIGITS[code] ?? -1;
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
  return out;
}

/** The 32 bytes of a Solana public key in base58; throws when it is not one. */
export function solanaKeyBytes(address: string): Uint8Array {
  const bytes = decodeBase58(address);
  if (bytes?.length !== 32) throw new Error(`not a Solana public key: ${address}`);
  return bytes;
}

/** A Solana public key as bytes32 (lowercase 0x hex), the form OIF orders carry. */
export function solanaKeyToBytes32(address: string): Hex {
  return `0x${Buffer.from(solanaKeyBytes(address)).toString("hex")}`;
}

/** The Solana public key (base58) of bytes32 (0x hex, any case). */
export function bytes32ToSolanaKey(value: Hex): string {
  if (!/^0x[0-9a-fA-F]{64}$/.test(value)) throw new Error(`not bytes32: ${value}`);
  return encodeBase58(Buffer.from(value.slice(2), "hex"));
}

/** The OIF chain id of a Solana chain: its 32 genesis-hash bytes as one big-endian uint256. */
export function solanaOifChainId(genesisHash: string): bigint {
  return BigInt(solanaKeyToBytes32(genesisHash));
}

/** ERC-7930 interop address of a Solana account: chain type 0x0002, 32-byte genesis hash, 32-byte key. */
export function encodeSolanaInteropAddress(genesisHash: string, address: string): Hex {
  const chain = solanaKeyToBytes32(genesisHash).slice(2);
  const key = solanaKeyToBytes32(address).slice(2);
  return `0x0001000220${chain}20${key}`;
}

/** A Solana interop address decoded: the genesis hash and the account (base58), or undefined. */
export function decodeSolanaInteropAddress(
  value: unknown,
): { genesisHash: string; address: string } | undefined {
  if (typeof value !== "string") return undefined;
  const match = /^0x0001000220([0-9a-f]{64})20([0-9a-f]{64})$/.exec(value.toLowerCase());
  if (!match) return undefined;
  return {
    genesisHash: bytes32ToSolanaKey(`0x${match[1]}`),
    address: bytes32ToSolanaKey(`0x${match[2]}`),
  };
}

/** The terms of an order whose input is held by the Solana escrow. */
export interface SolanaEscrowOrder {
  /** The user: the owner who deposits, and the only one a refund pays (base58). */
  user: string;
  /** base58. */
  mint: string;
  amount: bigint;
  /** Unix seconds after which an unreleased deposit may be refunded (judged on the chain's clock). */
  expires: number;
  /**
   * A u64 the quoting solver draws at random for each quote, so two quotes of otherwise equal terms
   * (same user, amount and output within one second) are two escrow orders.
   */
  nonce: bigint;
  /** 32-byte commitment (0x hex) to what the solver must deliver on the destination. */
  outputHash: Hex;
}

/**
 * The on-chain order id of a Solana escrow order, as lowercase 0x hex: sha256 of the domain text, the
 * user's and the mint's 32 key bytes, amount, expires and nonce as u64 little-endian, then outputHash.
 */
export function solanaEscrowOrderId(order: SolanaEscrowOrder): Hex {
  if (order.nonce < 0n || order.nonce >= 1n << 64n) throw new Error("nonce is a u64");
  const numbers = new DataView(new ArrayBuffer(24));
  numbers.setBigUint64(0, order.amount, true);
  numbers.setBigUint64(8, BigInt(order.expires), true);
  numbers.setBigUint64(16, order.nonce, true);
  const outputHash = Buffer.from(order.outputHash.slice(2), "hex");
  if (outputHash.length !== 32) throw new Error("outputHash is 32 bytes of 0x hex");
  const hash = createHash("sha256")
    .update("intent-hub solana escrow order")
    .update(solanaKeyBytes(order.user))
    .update(solanaKeyBytes(order.mint))
    .update(new Uint8Array(numbers.buffer))
    .update(outputHash)
    .digest("hex");
  return `0x${hash}`;
}

/** What a Solana escrow order commits the solver to deliver: keccak256(abi.encode(uint32 fillDeadline, output)). */
export function solanaOutputHash(fillDeadline: number, output: MandateOutput): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ name: "fillDeadline", type: "uint32" }, mandateOutputAbiParameter],
      [fillDeadline, output],
    ),
  );
}

/** The checksum a Solana sign payload carries as `digest`: base58 of sha256 of the message bytes. */
export function solanaMessageDigest(message: Uint8Array): string {
  return encodeBase58(createHash("sha256").update(message).digest());
}
