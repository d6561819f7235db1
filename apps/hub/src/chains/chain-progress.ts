export interface ChainProgress {
  chainDomain: string;
  /** First and last block indexed in this tick; absent when nothing new was safe to index. */
  fromBlock?: number;
  toBlock?: number;
  ranges: number;
  factsWritten: number;
  /** A reorganisation rolled back in this pass: the fork block and how many blocks were replaced. */
  reorg?: { forkBlock: number; depth: number; finalityViolated: boolean; factsRemoved: number };
  error?: string;
}

/** What this instance last saw of one chain; the operations metrics read it at each scrape. */
export interface ChainIndexState {
  chainDomain: string;
  /** The safe head (head less confirmations) at the last tick that read it. */
  safeHead?: number;
  /** The last block indexed (the watermark) as this instance last knew it. */
  indexedBlock?: number;
  /** The newest block final by the chain's finality rule, as this instance last read it. */
  finalBlock?: number;
  /** When a tick last indexed this chain up to its safe head (ms since the epoch). */
  caughtUpAtMs?: number;
  /** Ticks in which this chain could not be indexed. */
  errors: number;
  /** Reorganisations rolled back, by depth (blocks replaced above the fork point). */
  reorgsByDepth: Record<string, number>;
  /** Reorganisations that replaced a block already final by the chain's finality rule. */
  finalityViolations: number;
  /**
   * Set while the chain's indexed history differs from the chain below every kept block: indexing is
   * stopped (the chain is not ready) until an operator runs `hub admin reindex --chain --from`.
   */
  reorgBeyondKeptBlocks?: { watermark: number; oldestKeptBlock?: number };
  /** When a pass over this chain last ended without an error (ms since the epoch). */
  lastSuccessAtMs?: number;
  /** Set while the chain fails: when its current run of failed passes began. */
  failingSinceMs?: number;
  /** Failed passes since the last success. */
  consecutiveErrors?: number;
  /** The last failure's message, while failing (hosts only, never a full RPC URL). */
  lastError?: string;
  /** The chain's head as last read (before confirmations), and when: the lag moves while indexing is stuck. */
  headBlock?: number;
  headAtMs?: number;
  /** When this instance began indexing the chain (the stale bound counts from it before a first success). */
  sinceMs?: number;
}
