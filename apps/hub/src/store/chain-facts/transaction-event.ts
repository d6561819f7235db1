import type { OnchainTxOrder } from "@hub/contract";
import { isStorableText, type SqlExecutor } from "@hub/store";
import type { FamilyFactTables } from "./family-fact-tables.js";

export interface TransactionEvent {
  /** The escrow order id, or the bridge depositId for a deposit or release. */
  onchainOrderId: string;
  event: NonNullable<OnchainTxOrder["event"]>;
}

/** The events of a transaction among the EVM facts: (onchain_order_id, event, log_index) rows. */
const evmTransactionEvents = [
  "SELECT onchain_order_id, 'open' AS event, log_index FROM chain_order_opens WHERE chain_domain = $1 AND tx_hash = $2",
  "SELECT onchain_order_id, 'fill', log_index FROM chain_output_fills WHERE chain_domain = $1 AND tx_hash = $2",
  "SELECT onchain_order_id, 'settle', log_index FROM chain_order_finalisations WHERE chain_domain = $1 AND tx_hash = $2",
  "SELECT onchain_order_id, 'refund', log_index FROM chain_order_refunds WHERE chain_domain = $1 AND tx_hash = $2",
  "SELECT deposit_id, 'deposit', log_index FROM bridge_deposits WHERE chain_domain = $1 AND tx_hash = $2",
  "SELECT deposit_id, 'release', log_index FROM bridge_releases WHERE chain_domain = $1 AND tx_hash = $2",
];

export async function findTransactionEvent(
  sql: SqlExecutor,
  families: readonly FamilyFactTables[],
  chainDomain: string,
  txHash: string,
): Promise<TransactionEvent | undefined> {
  if (!isStorableText(chainDomain) || !isStorableText(txHash)) return undefined;
  const events = [...evmTransactionEvents, ...families.map((family) => family.transactionEvents)];
  const rows = await sql.query<{ onchain_order_id: string; event: TransactionEvent["event"] }>(
    `SELECT onchain_order_id, event FROM (
       ${events.join("\n       UNION ALL\n       ")}
     ) events ORDER BY log_index LIMIT 1`,
    [chainDomain, txHash],
  );
  const row = rows[0];
  return row ? { onchainOrderId: row.onchain_order_id, event: row.event } : undefined;
}
