import type { SqlClient } from "@hub/store";

/** The lease that keeps one reconciler indexing across replicas. */
export interface ReconcilerLeaseStore {
  /**
   * Takes or renews the named lease for holder: succeeds when nobody holds it, when holder already
   * does, or when the other holder's lease has expired. One statement, so two replicas never both win.
   * Expiry is database time: replicas' clocks never have to agree.
   */
  acquireReconcilerLease(lease: { name: string; holder: string; ttlMs: number }): Promise<boolean>;
  /** Gives the lease up so another replica can take it at once; a no-op when holder no longer has it. */
  releaseReconcilerLease(lease: { name: string; holder: string }): Promise<void>;
  /** The current holder of an unexpired lease, if any. */
  getReconcilerLeaseHolder(name: string): Promise<string | undefined>;
}

export function createReconcilerLeaseStore(sql: SqlClient): ReconcilerLeaseStore {
  return {
    async acquireReconcilerLease(lease) {
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
    },

    async releaseReconcilerLease(lease) {
      await sql.query("DELETE FROM reconciler_leases WHERE name = $1 AND holder = $2", [
        lease.name,
        lease.holder,
      ]);
    },

    async getReconcilerLeaseHolder(name) {
      const rows = await sql.query<{ holder: string }>(
        "SELECT holder FROM reconciler_leases WHERE name = $1 AND expires_at > now()",
        [name],
      );
      return rows[0]?.holder;
    },
  };
}
