import type { MandateOutputJson } from "@hub/chain";

/** One Solana order fact: what a transaction did to an on-chain order id. */
export interface SolanaOrderFact {
  kind: "deposit" | "release" | "refund" | "fill";
  onchainOrderId: string;
  signature: string;
  slot: number;
  blockTime: number;
  instructionIndex: number;
  mint: string;
  amount: string;
  authority: string;
  destination: string;
  destinationOwner: string;
  /** fill only: the EVM address the memo names. */
  evmSolver?: string;
  /** fill only: the MandateOutput the fill delivers, in the stored encoding. */
  output?: MandateOutputJson;
}
