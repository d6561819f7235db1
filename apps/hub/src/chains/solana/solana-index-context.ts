import type { ChainIndexContext } from "../chain-indexer.js";
import type { ChainProgress } from "../chain-progress.js";
import type { SolanaEscrowAccounts } from "./read-solana-order-fact.js";
import type { SolanaChainReader } from "./solana-chain-reader.js";
import type { SolanaIndexLimits } from "./solana-index-limits.js";
import type { SolanaReconcilerChainConfig } from "./solana-reconciler-chain-config.js";

/** One Solana chain's indexer state across passes. */
export interface SolanaIndexContext {
  chain: SolanaReconcilerChainConfig;
  reader: SolanaChainReader;
  limits: SolanaIndexLimits;
  /** The node's genesis hash matched once: not asked again. */
  genesisChecked: boolean;
}

/** One pass over a Solana chain: what the reconciler lent it, and what the pass has seen so far. */
export interface SolanaPass {
  indexing: SolanaIndexContext;
  context: ChainIndexContext;
  escrow: SolanaEscrowAccounts;
  /** The genesis hash as bytes32 hex: the chain's block hash in its watermarks. */
  genesisHex: `0x${string}`;
  progress: ChainProgress;
  newestBlockTime: number;
}
