import type { SolanaTransactionError } from "../solana-transaction-error.js";
import type { WireTransaction } from "../solana-wire-transaction.js";

/** A token balance of one account as getTransaction's meta lists it. */
export interface SolanaTokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: SolanaUiTokenAmount;
}

export interface SolanaUiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

/** A transaction that landed in a slot (successful or failed), with what getTransaction reports. */
export interface SolanaTransactionRecord {
  signature: string;
  slot: number;
  blockTime: number;
  transaction: WireTransaction;
  err: SolanaTransactionError | null;
  fee: bigint;
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: SolanaTokenBalance[];
  postTokenBalances: SolanaTokenBalance[];
  logMessages: string[];
  innerInstructions: {
    index: number;
    instructions: { programIdIndex: number; accounts: number[]; data: Uint8Array; stackHeight: number }[];
  }[];
  computeUnitsConsumed: bigint;
  /** Memo instructions as getSignaturesForAddress shows them: "[len] text", joined by "; "; null without one. */
  memo: string | null;
}
