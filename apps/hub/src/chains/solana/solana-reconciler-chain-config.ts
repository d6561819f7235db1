export interface SolanaReconcilerChainConfig {
  /** CAIP-2, `solana:<first 32 characters of the genesis hash>`; the watermark's key. */
  chainDomain: string;
  /** base58 of the 32 genesis-hash bytes: checked against the node, and the chain's OIF chain id. */
  genesisHash: string;
  rpcUrl: string;
  /** The escrow's settler authority and its vault token account per mint. */
  escrow: { settler: string; vaults: readonly { mint: string; vault: string }[] };
  /** The account Solana outputs name as settler and oracle. */
  outputSettler: string;
  /**
   * The commitment the chain's transactions are read at, which is when they count as final: only a
   * transaction at that commitment is indexed. `finalized` when absent.
   */
  commitment?: SolanaCommitment;
}

export type SolanaCommitment = "finalized" | "confirmed";
