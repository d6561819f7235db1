export interface ChainProgress {
  chainDomain: string;
  /** First and last block indexed in this tick; absent when nothing new was safe to index. */
  fromBlock?: number;
  toBlock?: number;
  ranges: number;
  factsWritten: number;
  error?: string;
}

/** What this instance last saw of one chain; the operations metrics read it at each scrape. */
export interface ChainIndexState {
  chainDomain: string;
  /** The safe head (head less confirmations) at the last tick that read it. */
  safeHead?: number;
  /** The last block indexed (the watermark) as this instance last knew it. */
  indexedBlock?: number;
  /** When a tick last indexed this chain up to its safe head (ms since the epoch). */
  caughtUpAtMs?: number;
  /** Ticks in which this chain could not be indexed. */
  errors: number;
}
