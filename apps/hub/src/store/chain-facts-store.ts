import type { SqlClient } from "@hub/store";
import type { ChainFacts } from "../status-rules/index.js";
import { type BridgeDepositLog, type BridgeReleaseLog, findBridgeLogs } from "./chain-facts/bridge-logs.js";
import { type ChainRollbackStore, createChainRollbackStore } from "./chain-facts/chain-rollback.js";
import { type ChainWatermarkStore, createChainWatermarkStore } from "./chain-facts/chain-watermark.js";
import type { FamilyFactTables } from "./chain-facts/family-fact-tables.js";
import { type IndexedRange, writeIndexedRange } from "./chain-facts/indexed-range.js";
import { readChainFacts } from "./chain-facts/read-chain-facts.js";
import { createReconcilerLeaseStore, type ReconcilerLeaseStore } from "./chain-facts/reconciler-lease.js";
import { createSolanaChainFactsStore, type SolanaChainFactsStore } from "./chain-facts/solana-chain-facts.js";
import { solanaFactTables } from "./chain-facts/solana-fact-tables.js";
import { findTransactionEvent, type TransactionEvent } from "./chain-facts/transaction-event.js";

export type { BridgeDepositLog, BridgeReleaseLog } from "./chain-facts/bridge-logs.js";
export type { RollbackResult } from "./chain-facts/chain-rollback.js";
export { type ChainWatermark, WatermarkConflictError } from "./chain-facts/chain-watermark.js";
export type { IndexedRange, KeptBlock } from "./chain-facts/indexed-range.js";
export type { TransactionEvent } from "./chain-facts/transaction-event.js";

/**
 * What the reconciler indexes and what the on-chain views read of it: the escrow facts, the bridge
 * logs, the watermarks and observation marks, and the lease that keeps one indexer across replicas.
 */
export interface ChainFactsStore
  extends ReconcilerLeaseStore,
    ChainWatermarkStore,
    ChainRollbackStore,
    SolanaChainFactsStore {
  /**
   * Writes a range's facts and moves the chain's watermark in one transaction. The watermark moves only
   * from the value the range was read from and only while this holder has the lease (checked in the
   * same statement), so a second instance or a lapsed leader commits nothing. A range that wrote a new
   * fact also moves the chain's observation mark. Returns facts written.
   */
  writeIndexedRange(range: IndexedRange): Promise<number>;
  /**
   * Every indexed fact for each of the ids, looked up exactly as given (an uppercase or 0x-less id finds
   * nothing). Ids with no fact at all are absent from the map.
   */
  readChainFacts(onchainOrderIds: readonly string[]): Promise<Map<string, ChainFacts>>;
  /**
   * The first indexed event (by log index) of a transaction on one chain domain: the four escrow kinds
   * and the open-flow Bridge's Deposited and Released (named by their depositId). Exact match: hashes
   * are stored lowercase, so another case finds nothing.
   */
  findTransactionEvent(chainDomain: string, txHash: string): Promise<TransactionEvent | undefined>;
  /**
   * The indexed bridge logs of a depositId, exact match: the first Deposited log and every Released
   * log, each by (block, log index).
   */
  findBridgeLogs(
    depositId: string,
  ): Promise<{ deposit: BridgeDepositLog | undefined; releases: BridgeReleaseLog[] }>;
}

/** The chain families whose facts live in tables of their own, beside the EVM facts every chain shares. */
const familyFactTables: readonly FamilyFactTables[] = [solanaFactTables];

export function createChainFactsStore(sql: SqlClient): ChainFactsStore {
  return {
    ...createReconcilerLeaseStore(sql),
    ...createChainWatermarkStore(sql, familyFactTables),
    ...createChainRollbackStore(sql, familyFactTables),
    ...createSolanaChainFactsStore(sql),
    writeIndexedRange: (range) => writeIndexedRange(sql, range),
    readChainFacts: (ids) => readChainFacts(sql, familyFactTables, ids),
    findTransactionEvent: (chainDomain, txHash) =>
      findTransactionEvent(sql, familyFactTables, chainDomain, txHash),
    findBridgeLogs: (depositId) => findBridgeLogs(sql, depositId),
  };
}
