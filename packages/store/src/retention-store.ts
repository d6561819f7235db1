import type { SqlClient } from "./sql-client.js";

/** What is past retention: every row older than its cutoff. */
export interface RetentionCutoffs {
  /** Sessions that ended (absolute end, or last seen) before this. */
  sessionsEndedBefore: Date;
  /** Invitations that expired (used or not) before this. */
  invitesExpiredBefore: Date;
  /** Per-minute usage rows of minutes before this, and per-key daily rows of UTC days before its day. */
  usageMinutesBefore: Date;
  /** Audit entries written before this. */
  auditBefore: Date;
}

export interface RetentionDeleted {
  sessions: number;
  invites: number;
  usageMinutes: number;
  keyUsageDays: number;
  audit: number;
}

/** Deletes rows past retention, in batches (each kind at most `batchSize` rows per call). */
export interface RetentionStore {
  deletePastRetention(cutoffs: RetentionCutoffs, batchSize: number): Promise<RetentionDeleted>;
}

export function createRetentionStore(sql: SqlClient): RetentionStore {
  // One bounded statement per kind (ctid picks the batch; each column is indexed by migrations 0016 and 0017), so a
  // large backlog is worked off over several runs without one long lock.
  const purge = async (table: string, where: string, cutoff: Date, batchSize: number) => {
    const rows = await sql.query(
      `DELETE FROM ${table} WHERE ctid IN (SELECT ctid FROM ${table} WHERE ${where} LIMIT $2) RETURNING 1 AS gone`,
      [cutoff.toISOString(), batchSize],
    );
    return rows.length;
  };
  return {
    async deletePastRetention(cutoffs, batchSize) {
      return {
        sessions: await purge(
          "dashboard_sessions",
          "expires_at < $1 OR last_seen_at < $1",
          cutoffs.sessionsEndedBefore,
          batchSize,
        ),
        invites: await purge("dashboard_invites", "expires_at < $1", cutoffs.invitesExpiredBefore, batchSize),
        usageMinutes: await purge("usage_minutes", "minute < $1", cutoffs.usageMinutesBefore, batchSize),
        keyUsageDays: await purge(
          "api_key_usage_days",
          "day < ($1::timestamptz AT TIME ZONE 'UTC')::date",
          cutoffs.usageMinutesBefore,
          batchSize,
        ),
        audit: await purge("audit_log", "at < $1", cutoffs.auditBefore, batchSize),
      };
    },
  };
}
