import type { ChainReader } from "./chain-reader.js";
import type { ReconcilerChainConfig } from "./reconciler-chain-config.js";

/** How the reconciler indexes its EVM chains. */
export interface EvmIndexOptions {
  /** Blocks kept below the head before indexing. */
  confirmations: number;
  /** Most blocks one eth_getLogs covers. */
  maxBlockRange: number;
  /** Blocks kept below the watermark to find a reorganisation's fork point. */
  keepBlocks: number;
  /** Ranges read ahead at once while the chain is behind; committed in order. */
  rangesInFlight: number;
  /** Test seam: awaited inside a rollback's transaction after its last statement, before the commit. */
  beforeRollbackCommit?: (chainDomain: string) => Promise<void>;
}

/** One EVM chain's indexer state across passes: its reader, and whether the node's chain id matched. */
export interface EvmChainIndexing {
  chain: ReconcilerChainConfig;
  reader: ChainReader;
  options: EvmIndexOptions;
  chainIdVerified: boolean;
}
