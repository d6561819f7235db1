import type { ChainIndexer } from "../chain-indexer.js";
import type { ChainReader } from "./chain-reader.js";
import type { EvmChainIndexing, EvmIndexOptions } from "./evm-chain-indexing.js";
import { indexEvmChain } from "./index-evm-chain.js";
import type { ReconcilerChainConfig } from "./reconciler-chain-config.js";

export interface EvmIndexerOptions extends EvmIndexOptions {
  reader: ChainReader;
}

/** The reconciler's indexer of one EVM chain, reading it through options.reader. */
export function createEvmChainIndexer(
  chain: ReconcilerChainConfig,
  options: EvmIndexerOptions,
): ChainIndexer {
  const indexing: EvmChainIndexing = { chain, reader: options.reader, options, chainIdVerified: false };
  return { chainDomain: chain.chainDomain, index: (context) => indexEvmChain(indexing, context) };
}
