import type { SqlClient } from "./sql-client.js";

/** How a call identified its organization. */
export type CredentialKind = "api_key" | "project_id";

/** Calls of one organization in one minute with one credential kind and one answer code ('' is success). */
export interface UsageCount {
  orgId: string;
  minute: Date;
  credentialKind: CredentialKind;
  code: string;
  count: number;
}

/** The same, summed over one hour. */
export interface UsageHourCount {
  hour: Date;
  credentialKind: CredentialKind;
  code: string;
  count: number;
}

export interface UsageStore {
  /** Adds the counts to what is stored (one statement: all rows or none); keys must be distinct. */
  addUsage(counts: readonly UsageCount[]): Promise<void>;
  /** The organization's counts with from <= minute < to, summed per UTC hour, oldest first. */
  readUsageByHour(input: { orgId: string; from: Date; to: Date }): Promise<UsageHourCount[]>;
}

interface UsageHourRow {
  hour_epoch_seconds: number;
  credential_kind: CredentialKind;
  code: string;
  count: number;
}

/** The gateways' per-minute usage counters. */
export function createUsageStore(sql: SqlClient): UsageStore {
  return {
    async addUsage(counts) {
      if (counts.length === 0) return;
      await sql.query(
        `INSERT INTO usage_minutes (org_id, minute, credential_kind, code, count)
         SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::bigint[])
         ON CONFLICT (org_id, minute, credential_kind, code)
         DO UPDATE SET count = usage_minutes.count + EXCLUDED.count`,
        [
          counts.map((c) => c.orgId),
          counts.map((c) => c.minute.toISOString()),
          counts.map((c) => c.credentialKind),
          counts.map((c) => c.code),
          counts.map((c) => c.count),
        ],
      );
    },

    async readUsageByHour({ orgId, from, to }) {
      // Epoch arithmetic, so the hour does not depend on the session's time zone.
      const rows = await sql.query<UsageHourRow>(
        `SELECT (floor(extract(epoch FROM minute) / 3600) * 3600)::float8 AS hour_epoch_seconds,
                credential_kind, code, sum(count)::float8 AS count
         FROM usage_minutes
         WHERE org_id = $1 AND minute >= $2 AND minute < $3
         GROUP BY 1, 2, 3
         ORDER BY 1, 2, 3`,
        [orgId, from.toISOString(), to.toISOString()],
      );
      return rows.map((row) => ({
        hour: new Date(Number(row.hour_epoch_seconds) * 1000),
        credentialKind: row.credential_kind,
        code: row.code,
        count: Number(row.count),
      }));
    },
  };
}
