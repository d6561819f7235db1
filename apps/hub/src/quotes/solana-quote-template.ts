import type { SolanaQuoteBlock } from "../store/solana-quote-block.js";
import type { QuoteTemplate } from "./quote-template.js";

export type { SolanaQuoteBlock };

/**
 * What the hub stores with an oif-escrow-nonevm winner: the upstream answer as received, and what the
 * submission's Ed25519 check and the reconciler need from it, as vetted (docs/decisions/solana-lane.md).
 */
export interface SolanaQuoteTemplate {
  version: 1;
  providerId: string;
  solverId: string;
  lane: "oif-escrow-nonevm";
  orderType: "oif-svm-escrow-v0";
  /** The 97-byte envelope: 0x00, the Ed25519 signature of the message bytes, the sender's key. */
  signatureScheme: "ed25519";
  quoteResponse: unknown;
  /** The escrow order id (the deposit's memo), recomputed. */
  onchainOrderId: `0x${string}`;
  onchainOrderIdSource: "verified";
  /** The sender, base58. */
  user: string;
  /** Lowercase 0x. */
  recipient: `0x${string}`;
  validUntil: number;
  solana: SolanaQuoteBlock;
}

/**
 * The `solana` block of a stored oif-escrow-nonevm template. Every such row has one: the block was
 * written from the lane's first stored quote on (the raw upstream answer is only forwarded).
 */
export function solanaQuoteBlockOf(template: Record<string, unknown>): SolanaQuoteBlock {
  const block = template.solana;
  if (typeof block !== "object" || block === null)
    throw new Error("a stored oif-escrow-nonevm quote has no solana block");
  return block as SolanaQuoteBlock;
}

/** What a submission needs on any OIF lane, EVM or Solana source. */
export type OifLaneTemplate = QuoteTemplate | SolanaQuoteTemplate;
