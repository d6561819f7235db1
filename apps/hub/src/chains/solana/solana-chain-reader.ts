/** One entry of an address's history, newest first as getSignaturesForAddress lists them. */
export interface SolanaSignatureInfo {
  signature: string;
  slot: number;
  /** Unix seconds; null when the node does not know it. */
  blockTime: number | null;
  failed: boolean;
}

/** One instruction of a landed transaction, its accounts resolved to base58 keys. */
export interface SolanaInstructionView {
  programId: string;
  accounts: string[];
  data: Uint8Array;
}

/** A landed transaction as the reconciler reads it. */
export interface SolanaTransactionView {
  signature: string;
  slot: number;
  blockTime: number;
  failed: boolean;
  instructions: SolanaInstructionView[];
  /** The token account balances after the transaction: account, its mint and owner (base58). */
  postTokenBalances: Array<{ account: string; mint: string; owner: string }>;
}

/** The reconciler's seam to one Solana chain. */
export interface SolanaChainReader {
  genesisHash(): Promise<string>;
  slot(): Promise<number>;
  /** An address's history, newest first, below `before` and above `until` (both exclusive). */
  signaturesForAddress(
    address: string,
    options: { before?: string; until?: string; limit: number },
  ): Promise<SolanaSignatureInfo[]>;
  /** The transaction, or undefined when the node does not have it. */
  transaction(signature: string): Promise<SolanaTransactionView | undefined>;
}
