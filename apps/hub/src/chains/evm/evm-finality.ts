import { hexToBytes, keccak256 } from "viem";
import type { BlockHeader, ChainReader, FinalityTag } from "./chain-reader.js";

/**
 * When a block of an EVM chain is final: when the node's `finalized` (or `safe`) tag has reached it, or
 * once `depth` blocks are on top of it (depth 0: as soon as it is indexed).
 */
export type EvmFinality = { tag: FinalityTag } | { depth: number };

/** A catalog chain without a finality setting: the node's `finalized` tag. */
export const defaultEvmFinality: EvmFinality = { tag: "finalized" };

/** The newest final block of the chain at head, or undefined when none is final yet. */
export async function finalHeader(
  reader: ChainReader,
  finality: EvmFinality,
  head: number,
): Promise<BlockHeader | undefined> {
  if ("tag" in finality) return reader.taggedHeader(finality.tag);
  const number = head - finality.depth;
  return number < 0 ? undefined : reader.header(number);
}

export function describeFinality(finality: EvmFinality): string {
  return "tag" in finality ? `the ${finality.tag} tag` : `${finality.depth} blocks deep`;
}

function bloomBits(address: string): number[] {
  const hash = hexToBytes(keccak256(hexToBytes(address as `0x${string}`)));
  return [0, 2, 4].map((i) => (((hash[i] ?? 0) << 8) | (hash[i + 1] ?? 0)) & 2047);
}

/**
 * Whether a block's logsBloom may hold a log of one of the addresses (false positives happen, false
 * negatives never): a block whose bloom names our contracts but whose range answer has no log of it
 * was not seen by the node that answered, or is a false positive that a read by block hash tells apart.
 */
export function bloomMayContain(logsBloom: string, addresses: readonly string[]): boolean {
  const bloom = hexToBytes(logsBloom as `0x${string}`);
  if (bloom.length !== 256) return true;
  return addresses.some((address) =>
    bloomBits(address.toLowerCase()).every(
      (bit) => ((bloom[255 - Math.floor(bit / 8)] ?? 0) & (1 << (bit % 8))) !== 0,
    ),
  );
}
