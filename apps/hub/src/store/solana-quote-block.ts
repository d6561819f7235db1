import type { MandateOutputJson } from "@hub/chain";

/** The vetted Solana terms of an oif-escrow-nonevm quote, written once at quote time. */
export interface SolanaQuoteBlock {
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
}
