import type { SqlExecutor } from "@hub/store";

export interface OrderByTransaction {
  onchainOrderId: string;
  chainDomain: string;
  txHash: string;
  blockNumber: number;
  logIndex: number;
}

/**
 * The order opened by a transaction, from its indexed Open log; with several Opens in one transaction
 * the first by log index. Exact match: hashes are stored lowercase, so another case finds nothing.
 */
export async function findOrderByTransaction(
  sql: SqlExecutor,
  chainDomain: string,
  txHash: string,
): Promise<OrderByTransaction | undefined> {
  const rows = await sql.query<{
    onchain_order_id: string;
    chain_domain: string;
    tx_hash: string;
    block_number: string;
    log_index: number;
  }>(
    `SELECT onchain_order_id, chain_domain, tx_hash, block_number::text AS block_number, log_index
     FROM chain_order_opens WHERE chain_domain = $1 AND tx_hash = $2 ORDER BY log_index LIMIT 1`,
    [chainDomain, txHash],
  );
  const row = rows[0];
  if (!row) return undefined;
  return {
    onchainOrderId: row.onchain_order_id,
    chainDomain: row.chain_domain,
    txHash: row.tx_hash,
    blockNumber: Number(row.block_number),
    logIndex: row.log_index,
  };
}
