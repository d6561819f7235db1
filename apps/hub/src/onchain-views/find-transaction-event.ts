import type { SqlExecutor } from "@hub/store";

export interface TransactionEvent {
  onchainOrderId: string;
  event: "open" | "fill" | "settle" | "refund";
}

/**
 * The first indexed event (by log index) of a transaction on one chain domain, any of the four kinds.
 * Exact match: hashes are stored lowercase, so another case finds nothing.
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
     ) events ORDER BY log_index LIMIT 1`,
    [chainDomain, txHash],
  );
  const row = rows[0];
  return row ? { onchainOrderId: row.onchain_order_id, event: row.event } : undefined;
}
