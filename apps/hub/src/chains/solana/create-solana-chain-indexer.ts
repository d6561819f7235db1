import type { ChainIndexer } from "../chain-indexer.js";
import { createSolanaChainReader } from "./create-solana-chain-reader.js";
import { indexSolanaChain } from "./index-solana-chain.js";
import type { SolanaChainReader } from "./solana-chain-reader.js";
import type { SolanaIndexContext } from "./solana-index-context.js";
import { defaultSolanaIndexLimits, type SolanaIndexLimits } from "./solana-index-limits.js";
import type { SolanaReconcilerChainConfig } from "./solana-reconciler-chain-config.js";

export interface SolanaIndexerOptions {
  /** Defaults to Solana JSON-RPC over HTTP at the chain's rpcUrl. */
  reader?: SolanaChainReader;
  limits?: Partial<SolanaIndexLimits>;
}

/** The reconciler's indexer of one Solana chain: the escrow's vaults and the token accounts of orders awaiting a Solana fill. */
export function createSolanaChainIndexer(
  chain: SolanaReconcilerChainConfig,
  options: SolanaIndexerOptions = {},
): ChainIndexer {
  const indexing: SolanaIndexContext = {
    chain,
    reader:
      options.reader ??
      createSolanaChainReader({
        rpcUrl: chain.rpcUrl,
        ...(chain.commitment ? { commitment: chain.commitment } : {}),
      }),
    limits: { ...defaultSolanaIndexLimits, ...options.limits },
    genesisChecked: false,
  };
  return { chainDomain: chain.chainDomain, index: (context) => indexSolanaChain(indexing, context) };
}
