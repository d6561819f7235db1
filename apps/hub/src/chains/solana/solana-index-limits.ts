export interface SolanaIndexLimits {
  /** Signatures per getSignaturesForAddress page (at most 1000). */
  pageSize: number;
  /** Pages one vault may list in one tick before the tick fails loudly (a backlog that large). */
  maxVaultPages: number;
  /** Transactions fetched and committed together. */
  batchSize: number;
  /** EVM orders awaiting a Solana fill whose recipients are read in one tick, newest first. */
  maxAwaitingOrders: number;
  /** Pages of one recipient's token account history read in one tick. */
  maxRecipientPages: number;
  /** A recipient's history is read back to this long before the order's Open (seconds). */
  recipientLookbackSeconds: number;
  /** Orders whose fillDeadline passed longer ago than this are no longer awaited (seconds). */
  awaitGraceSeconds: number;
}

export const defaultSolanaIndexLimits: SolanaIndexLimits = {
  pageSize: 1000,
  maxVaultPages: 100,
  batchSize: 100,
  maxAwaitingOrders: 50,
  maxRecipientPages: 2,
  recipientLookbackSeconds: 600,
  awaitGraceSeconds: 3600,
};
