import type { SqlExecutor } from "@hub/store";

/** Moves a chain's watermark back (or forward) to a block without touching its facts. */
export async function setWatermarkBlock(sql: SqlExecutor, chainDomain: string, block: number): Promise<void> {
  await sql.query("UPDATE chain_watermarks SET last_block = $2 WHERE chain_domain = $1", [
    chainDomain,
    block,
  ]);
}

/** Drops every chain's watermark, keeping the facts. */
export async function deleteAllWatermarks(sql: SqlExecutor): Promise<void> {
  await sql.query("DELETE FROM chain_watermarks");
}

/** Open facts recorded for one on-chain order id. */
export async function countOpens(sql: SqlExecutor, onchainOrderId: string): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM chain_order_opens WHERE onchain_order_id = $1",
    [onchainOrderId],
  );
  return row?.n ?? -1;
}

/** The row count of each of the four escrow fact tables. */
export async function countFacts(sql: SqlExecutor): Promise<Record<string, number>> {
  const tables = [
    "chain_order_opens",
    "chain_output_fills",
    "chain_order_finalisations",
    "chain_order_refunds",
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const [row] = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    counts[table] = row?.n ?? -1;
  }
  return counts;
}

/** Deposited logs indexed on one chain domain, as a decimal string. */
export async function countBridgeDeposits(
  sql: SqlExecutor,
  chainDomain: string,
): Promise<string | undefined> {
  const [row] = await sql.query<{ n: string }>(
    "SELECT count(*)::text AS n FROM bridge_deposits WHERE chain_domain = $1",
    [chainDomain],
  );
  return row?.n;
}

/** The reconciler lease row as the database holds it (expired or not); undefined when nobody took it. */
export async function readReconcilerLease(
  sql: SqlExecutor,
  name = "reconciler",
): Promise<{ holder: string; acquiredAt: Date; expiresAt: Date } | undefined> {
  const [row] = await sql.query<{ holder: string; acquired_at: Date; expires_at: Date }>(
    "SELECT holder, acquired_at, expires_at FROM reconciler_leases WHERE name = $1",
    [name],
  );
  return row && { holder: row.holder, acquiredAt: row.acquired_at, expiresAt: row.expires_at };
}
