import type { ChainProgress } from "../chains/chain-progress.js";

export interface TickResult {
  leader: boolean;
  chains: ChainProgress[];
  /** Quotes past their retention deleted in this tick. */
  quotesPruned: number;
}
