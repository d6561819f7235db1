import type { SqlExecutor } from "@hub/store";
import type { BridgeLog, OrderLog } from "../chain-log.js";

/**
 * Writes one escrow or output-settler log of an indexed range (an open, a fill, a finalisation or a
 * refund); returns 1, or 0 for a log written before.
 */
export async function insertOrderLog(
  tx: SqlExecutor,
  range: { chainDomain: string; observedAt: Date },
  log: Exclude<OrderLog, BridgeLog>,
  timestamp: number,
): Promise<number> {
  const common = [
    log.onchainOrderId,
    range.chainDomain,
    log.blockNumber,
    log.blockHash,
    timestamp,
    log.txHash,
    log.logIndex,
    log.settler,
    range.observedAt.toISOString(),
  ];
  const head = `onchain_order_id, chain_domain, block_number, block_hash, block_timestamp, tx_hash, log_index,
    settler, observed_at`;
  // Conflict only on the log's identity: a repeat of the same log is a no-op, while a second Open,
  // Finalised or Refunded for one order id (which the escrow never emits) fails the range loudly.
  const onRepeat = "ON CONFLICT (chain_domain, block_number, log_index) DO NOTHING RETURNING 1 AS written";
  let rows: unknown[];
  switch (log.kind) {
    case "open":
      rows = await tx.query(
        `INSERT INTO chain_order_opens (${head}, order_user, fill_deadline, expires, standard_order)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb) ${onRepeat}`,
        [...common, log.order.user, log.order.fillDeadline, log.order.expires, JSON.stringify(log.order)],
      );
      break;
    case "output-filled":
      rows = await tx.query(
        `INSERT INTO chain_output_fills (${head}, solver, fill_timestamp, output, final_amount)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::numeric) ${onRepeat}`,
        [...common, log.solver, log.timestamp, JSON.stringify(log.output), log.finalAmount],
      );
      break;
    case "finalised":
      rows = await tx.query(
        `INSERT INTO chain_order_finalisations (${head}, solver, destination)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ${onRepeat}`,
        [...common, log.solver, log.destination],
      );
      break;
    case "refunded":
      rows = await tx.query(
        `INSERT INTO chain_order_refunds (${head}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ${onRepeat}`,
        common,
      );
      break;
  }
  return rows.length;
}
