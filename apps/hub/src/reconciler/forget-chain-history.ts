import type { SqlClient } from "@hub/store";

const FACT_TABLES = [
  "chain_order_opens",
  "chain_output_fills",
  "chain_order_finalisations",
  "chain_order_refunds",
  "bridge_deposits",
  "bridge_releases",
  "chain_observation_marks",
] as const;

/**
 * Drops every fact and the watermark of one chain domain, in one transaction. For a chain that
 * started again from its genesis (a devnet started afresh): its old facts describe blocks that no
 * longer exist, and the reconciler would refuse to index under a watermark whose block changed.
 */
export async function forgetChainHistory(sql: SqlClient, chainDomain: string): Promise<void> {
  await sql.transaction(async (tx) => {
    for (const table of FACT_TABLES) {
      await tx.query(`DELETE FROM ${table} WHERE chain_domain = $1`, [chainDomain]);
    }
    await tx.query("DELETE FROM chain_watermarks WHERE chain_domain = $1", [chainDomain]);
  });
}
