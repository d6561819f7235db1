import type { SqlExecutor } from "@hub/store";
import type { ChainFacts } from "../../status-rules/index.js";

/** Finds or starts the facts of one on-chain order id. */
export type ChainFactsEntry = (onchainOrderId: string) => ChainFacts;

/**
 * What a chain family that keeps facts in tables of its own adds to the statements every chain
 * shares: its chains' OIF ids, the tables a forgotten chain drops, its transaction events and the facts
 * it adds to an order's ChainFacts.
 */
export interface FamilyFactTables {
  /** Whether the chain domain is one of the family's. */
  owns(chainDomain: string): boolean;
  /** The OIF chain id of one of its watermarks, read from the watermark's block hash. */
  oifChainIdOf(lastBlockHash: string): string;
  /** Its tables that hold a chain domain's history. */
  historyTables: readonly string[];
  /** A SELECT of (onchain_order_id, event, log_index) of its facts in transaction $2 on chain domain $1. */
  transactionEvents: string;
  /**
   * Starts reading its facts of the ids at once (beside the shared reads); the step it resolves to adds
   * them to the facts, after the shared facts are in.
   */
  readFacts(sql: SqlExecutor, ids: readonly string[]): Promise<(entry: ChainFactsEntry) => void>;
}
