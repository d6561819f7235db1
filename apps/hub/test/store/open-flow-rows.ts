import type { SqlExecutor } from "@hub/store";

/** The tx hash of the Deposited log a registration has claimed; null while none, undefined without a registration. */
export async function readDepositClaim(
  sql: SqlExecutor,
  orderId: string,
): Promise<string | null | undefined> {
  const rows = await sql.query<{ tx_hash: string | null }>(
    "SELECT deposit_tx_hash AS tx_hash FROM open_flow_registrations WHERE hub_order_id = $1",
    [orderId],
  );
  return rows[0]?.tx_hash;
}

/** Registrations holding a claim on one Deposited log, as a decimal string. */
export async function countDepositClaims(
  sql: SqlExecutor,
  chainDomain: string,
  txHash: string,
): Promise<string | undefined> {
  const [row] = await sql.query<{ n: string }>(
    "SELECT count(*)::text AS n FROM open_flow_registrations WHERE deposit_chain_domain = $1 AND deposit_tx_hash = $2",
    [chainDomain, txHash],
  );
  return row?.n;
}

/** Every claim on one chain domain's Deposited logs, by tx hash. */
export function listDepositClaims(
  sql: SqlExecutor,
  chainDomain: string,
): Promise<Array<{ hub_order_id: string; tx_hash: string }>> {
  return sql.query<{ hub_order_id: string; tx_hash: string }>(
    `SELECT hub_order_id, deposit_tx_hash AS tx_hash FROM open_flow_registrations
      WHERE deposit_chain_domain = $1 ORDER BY deposit_tx_hash`,
    [chainDomain],
  );
}

/** The submissions and open-flow registrations a quote has. */
export async function countOrderRows(
  sql: SqlExecutor,
  quoteId: string,
): Promise<{ submissions: number; registrations: number }> {
  const [counts] = await sql.query<{ submissions: string; registrations: string }>(
    `SELECT (SELECT count(*) FROM submissions WHERE quote_id = $1)::text AS submissions,
            (SELECT count(*) FROM open_flow_registrations WHERE quote_id = $1)::text AS registrations`,
    [quoteId],
  );
  return { submissions: Number(counts?.submissions), registrations: Number(counts?.registrations) };
}

/** The registration of a quote as recorded: its signature set and lane. */
export async function readRegistration(
  sql: SqlExecutor,
  quoteId: string,
): Promise<{ signer: string | null; scheme: string | null; lane: string } | undefined> {
  const [row] = await sql.query<{ signer: string | null; scheme: string | null; lane: string }>(
    "SELECT signer, scheme, lane FROM open_flow_registrations WHERE quote_id = $1",
    [quoteId],
  );
  return row;
}
