import type { Watermark } from "@hub/contract";
import type { SqlClient } from "@hub/store";

interface MarkRow {
  chain_domain: string;
  last_block: string;
  updated_at: Date | string;
}

export async function listObservationMarks(sql: SqlClient, chainDomains: string[]): Promise<Watermark[]> {
  const rows = await sql.query<MarkRow>(
    `SELECT chain_domain, last_block::text AS last_block, updated_at
       FROM chain_observation_marks WHERE chain_domain = ANY($1::text[])`,
    [chainDomains],
  );
  const byDomain = new Map(rows.map((row) => [row.chain_domain, row]));
  return chainDomains.flatMap((chainDomain) => {
    const row = byDomain.get(chainDomain);
    return row
      ? [
          {
            chainDomain,
            blockNumber: Number(row.last_block),
            observedAt: new Date(row.updated_at).toISOString(),
          },
        ]
      : [];
  });
}
