import { solanaEscrowOrderId as sharedSolanaEscrowOrderId } from "@hub/chain";
import type { Address } from "@solana/kit";

/** The terms of an order whose input is held by the Solana escrow. */
export interface SolanaEscrowOrder {
  /** The user: the owner who deposits, and the only one a refund pays. */
  user: Address;
  mint: Address;
  amount: bigint;
  /** Unix seconds after which an unreleased deposit may be refunded (judged on the chain's clock). */
  expires: number;
  /** A random u64 the quoting solver draws, so two quotes of otherwise equal terms are two orders. */
  nonce: bigint;
  /** 32-byte commitment (0x hex) to what the solver must deliver on the destination. */
  outputHash: `0x${string}`;
}

export type SolanaEscrowState = "unknown" | "awaiting-deposit" | "deposited" | "released" | "refunded";

export interface SolanaEscrowDeposit {
  signature: string;
  slot: number;
  /** The token account the input came from. */
  source: Address;
}

/** The on-chain order id: sha256 over the order's terms, as 0x hex (`@hub/chain`). */
export function solanaEscrowOrderId(order: SolanaEscrowOrder): `0x${string}` {
  return sharedSolanaEscrowOrderId(order);
}
