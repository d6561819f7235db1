import type { SqlExecutor } from "@hub/store";

/**
 * Takes or renews the named lease for holder: succeeds when nobody holds it, when holder already
 * does, or when the other holder's lease has expired. One statement, so two replicas never both win.
 * Expiry is database time: replicas' clocks never have to agree.
 */
export async function acquireReconcilerLease(
  sql: SqlExecutor,
  lease: { name: string; holder: string; ttlMs: number },
): Promise<boolean> {
  const rows = await sql.query<{ holder: string }>(
    `INSERT INTO reconciler_leases (name, holder, acquired_at, expires_at)
     VALUES ($1, $2, now(), now() + $3 * interval '1 millisecond')
     ON CONFLICT (name) DO UPDATE SET
       holder = excluded.holder,
       expires_at = excluded.expires_at,
       acquired_at = CASE WHEN reconciler_leases.holder = excluded.holder
                          THEN reconciler_leases.acquired_at ELSE excluded.acquired_at END
     WHERE reconciler_leases.holder = excluded.holder OR reconciler_leases.expires_at <= now()
     RETURNING holder`,
    [lease.name, lease.holder, lease.ttlMs],
  );
  return rows.length === 1;
}

/** Gives the lease up so another replica can take it at once; a no-op when holder no longer has it. */
export async function releaseReconcilerLease(
  sql: SqlExecutor,
  lease: { name: string; holder: string },
): Promise<void> {
  await sql.query("DELETE FROM reconciler_leases WHERE name = $1 AND holder = $2", [
    lease.name,
    lease.holder,
  ]);
}

/** The current holder of an unexpired lease, if any. */
export async function getReconcilerLeaseHolder(sql: SqlExecutor, name: string): Promise<string | undefined> {
  const rows = await sql.query<{ holder: string }>(
    "SELECT holder FROM reconciler_leases WHERE name = $1 AND expires_at > now()",
    [name],
  );
  return rows[0]?.holder;
}
