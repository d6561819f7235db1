import type { OnchainTxOrder } from "@hub/contract";
import type { SqlExecutor } from "@hub/store";

export interface TransactionEvent {
  /** The escrow order id, or the bridge depositId for a deposit or release. */
  onchainOrderId: string;
  event: NonNullable<OnchainTxOrder["event"]>;
}

/**
 * The first indexed event (by log index) of a transaction on one chain domain: the four escrow kinds and
 * the open-flow Bridge's Deposited and Released (named by their depositId). Exact match: hashes are
 * stored lowercase, so another case finds nothing.
 */
export async function findTransactionEvent(
  sql: SqlExecutor,
  chainDomain: string,
  txHash: string,
): Promise<TransactionEvent | undefined> {
  const rows = await sql.query<{ onchain_order_id: string; event: TransactionEvent["event"] }>(
    `SELECT onchain_order_id, event FROM (
       SELECT onchain_order_id, 'open' AS event, log_index FROM chain_order_opens WHERE chain_domain = $1 AND tx_hash = $2
       UNION ALL
       SELECT onchain_order_id, 'fill', log_index FROM chain_output_fills WHERE chain_domain = $1 AND tx_hash = $2
       UNION ALL
       SELECT onchain_order_id, 'settle', log_index FROM chain_order_finalisations WHERE chain_domain = $1 AND tx_hash = $2
       UNION ALL
       SELECT onchain_order_id, 'refund', log_index FROM chain_order_refunds WHERE chain_domain = $1 AND tx_hash = $2
       UNION ALL
       SELECT deposit_id, 'deposit', log_index FROM bridge_deposits WHERE chain_domain = $1 AND tx_hash = $2
       UNION ALL
       SELECT deposit_id, 'release', log_index FROM bridge_releases WHERE chain_domain = $1 AND tx_hash = $2
     ) events ORDER BY log_index LIMIT 1`,
    [chainDomain, txHash],
  );
  const row = rows[0];
  return row ? { onchainOrderId: row.onchain_order_id, event: row.event } : undefined;
}
