import type { Clock } from "@hub/clock";
import { LiteSVM } from "litesvm";
import { sha256 } from "./sha256.js";
import type { SolanaTransactionRecord } from "./solana-transaction-record.js";

/** What the chain's modules share: the litesvm, the slot clock, the issued blockhashes and the history. */
export interface SolanaChainState {
  readonly clock: Clock;
  readonly slotMs: number;
  readonly genesisHashBytes: Uint8Array;
  readonly svm: LiteSVM;
  /** What increaseTime added to the clock. */
  offsetMs: number;
  slot: number;
  slotStartedMs: number;
  readonly issuedBlockhashes: Map<string, number>;
  readonly history: Map<string, SolanaTransactionRecord>;
  readonly byAddress: Map<string, SolanaTransactionRecord[]>;
}

export function createSolanaChainState(config: {
  clock: Clock;
  slotMs?: number;
  genesisLabel: string;
}): SolanaChainState {
  const slotMs = config.slotMs ?? 400;
  const genesis = sha256(`intent-hub solana genesis: ${config.genesisLabel}`);
  // litesvm only knows its one latest blockhash; the stand-in keeps the window of 150 slots itself.
  const svm = new LiteSVM().withBlockhashCheck(false).withTransactionHistory(0n);
  return {
    clock: config.clock,
    slotMs,
    genesisHashBytes: genesis,
    svm,
    offsetMs: 0,
    slot: 0,
    slotStartedMs: config.clock.now(),
    issuedBlockhashes: new Map(),
    history: new Map(),
    byAddress: new Map(),
  };
}
