import type { MandateOutputJson, StandardOrderJson } from "@hub/chain";
import type { ExecutionTx } from "@hub/contract";
import type { EvmOifLane } from "../lanes/lane-table.js";
import type { OifProduct } from "../upstream/providers-config.js";

/**
 * What a submission needs and the client never sees, stored with every quote so any replica can
 * forward it: the upstream QuoteResponse exactly as received (its integrity checksum included), and
 * what the hub rebuilt from it.
 */
export interface QuoteTemplate {
  version: 1;
  /** The configured provider to forward through (its client: ProviderClients.get). */
  providerId: string;
  solverId: string;
  lane: EvmOifLane;
  orderType: OifProduct;
  /**
   * `0x00` ‖ signature on Permit2; the raw 65 bytes (or `0x01` ‖ them) on EIP-3009; none on the proxy
   * lanes (the user opens the order through the user proxy, and the upstream is sent no signature).
   */
  signatureScheme: "permit2" | "eip3009" | "none";
  quoteResponse: unknown;
  /** The StandardOrder the escrow opens, rebuilt and checked by the hub. */
  standardOrder: StandardOrderJson;
  /** EIP-712 hash of the disclosed signPayload (what a valid signature signs); signature lanes only. */
  typedDataHash?: `0x${string}`;
  /** Recomputed by the hub (`verified`) on EIP-3009 and the proxy lanes; on Permit2 it comes with the upstream's ack. */
  onchainOrderId?: `0x${string}`;
  onchainOrderIdSource: "upstream" | "verified";
  user: `0x${string}`;
  /** Lowercase 0x; on a Solana destination the recipient's base58 key. */
  recipient: string;
  /** The upstream's validUntil, unix seconds. */
  validUntil: number;
  /** Proxy lanes: the transactions disclosed to the user, and on oif-swap-token the swap they make. */
  proxy?: {
    userProxy: `0x${string}`;
    executionTx: ExecutionTx;
    swap?: { tokenIn: `0x${string}`; amountIn: string; amountMax: string };
  };
}

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
  solana: {
    chainDomain: string;
    /** Standard base64 of the message bytes the user signs (the disclosed signPayload's). */
    transactionMessage: string;
    digest: string;
    sender: string;
    feePayer: string;
    recentBlockhash: string;
    /** The catalog's escrow vault the deposit goes to. */
    vault: string;
    escrowOrder: {
      user: string;
      mint: string;
      amount: string;
      expires: number;
      /** The solver's u64 nonce, a decimal string. */
      nonce: string;
      outputHash: `0x${string}`;
      orderId: `0x${string}`;
    };
    fillDeadline: number;
    output: MandateOutputJson;
  };
}

/** The vetted Solana terms of an oif-escrow-nonevm quote, written once at quote time. */
export type SolanaQuoteBlock = SolanaQuoteTemplate["solana"];

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
