import type { Clock } from "@hub/clock";
import type { SqlClient } from "@hub/store";
import type { Logger } from "pino";
import type { ChainIndexer } from "../chains/chain-indexer.js";
import type { ChainReader } from "../chains/evm/chain-reader.js";
import type { ReconcilerChainConfig } from "../chains/evm/reconciler-chain-config.js";

export interface ReconcilerDeps {
  sql: SqlClient;
  /** The EVM chains, indexed through the EVM family's indexer. */
  chains: readonly ReconcilerChainConfig[];
  clock: Clock;
  logger: Pick<Logger, "debug" | "info" | "warn" | "error">;
  /** Blocks kept below the head before indexing; 0 on the devnet. */
  confirmations?: number;
  pollIntervalMs?: number;
  /** Most blocks one eth_getLogs covers. */
  maxBlockRange?: number;
  /** Blocks kept per EVM chain below its watermark to find a reorganisation's fork point; 1024. */
  keepBlocks?: number;
  /** Ranges of one EVM chain read ahead at once while it is behind (first sync); 4. Committed in order. */
  rangesInFlight?: number;
  /**
   * Test seam, never set by the hub: awaited inside a rollback's transaction after its last statement,
   * before the commit (the crash test kills the process there).
   */
  beforeRollbackCommit?: (chainDomain: string) => Promise<void>;
  leaseTtlMs?: number;
  leaseName?: string;
  /** Names this instance in the lease; random when absent. */
  instanceId?: string;
  /** Defaults to EVM JSON-RPC over HTTP at the chain's rpcUrl. */
  createChainReader?: (chain: ReconcilerChainConfig) => ChainReader;
  /** The chains of the other families, each with its family's indexer (chainFamilies' `indexer`). */
  indexers?: readonly ChainIndexer[];
  /** The leader deletes quotes no order refers to once this long past registrable, one batch a tick; absent: none. */
  quotePruning?: { retentionMs: number; batchSize?: number };
  /** Run by the leader at the end of each tick, after the quotes are pruned (the retention job). */
  onLeaderTick?: () => Promise<unknown>;
}
