import type { SqlClient } from "@hub/store";

/** Reservations waiting on the upstream or an operator, per state, with the oldest one's reservation time. */
export interface PendingReservations {
  state: "forwarding" | "unknown";
  count: number;
  oldestReservedAt: Date | undefined;
}

/** What an operator watches in the database: that it answers, and the reservations left pending. */
export interface OperationsStore {
  /** Resolves once the database has answered a trivial statement. */
  ping(): Promise<void>;
  /** Both pending states, each present (count 0 when none); read on submissions_pending_idx. */
  pendingReservations(): Promise<PendingReservations[]>;
}

export function createOperationsStore(sql: SqlClient): OperationsStore {
  return {
    async ping() {
      await sql.query("SELECT 1");
    },
    async pendingReservations() {
      const rows = await sql.query<{ state: string; count: string; oldest: string | Date | null }>(
        `SELECT state, count(*) AS count, min(reserved_at) AS oldest
           FROM submissions WHERE state IN ('forwarding', 'unknown') GROUP BY state`,
      );
      return (["forwarding", "unknown"] as const).map((state) => {
        const row = rows.find((candidate) => candidate.state === state);
        return {
          state,
          count: row ? Number(row.count) : 0,
          oldestReservedAt: row?.oldest ? new Date(row.oldest) : undefined,
        };
      });
    },
  };
}
