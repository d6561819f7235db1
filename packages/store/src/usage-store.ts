import type { SqlClient } from "./sql-client.js";

/** How a call identified its organization. */
export type CredentialKind = "api_key" | "project_id";

/**
 * What a call was for: 'read' (a route the hub charges to no bucket), 'quote' or 'order' (the hub's
 * two buckets); '' when not known (a lockout, counted before the route is read, and rows from before).
 */
export type CallRouteKind = "" | "read" | "quote" | "order";

/**
 * Calls of one organization in one minute with one credential kind, route kind ('' when left out) and
 * answer code ('' is success).
 */
export interface UsageCount {
  orgId: string;
  minute: Date;
  credentialKind: CredentialKind;
  routeKind?: CallRouteKind;
  code: string;
  count: number;
}

/** What a call with an API key was for: quotes, order submissions, status reads, or anything else. */
export type KeyRouteKind = "quote" | "order" | "status" | "other";

/** Calls with one API key in one minute for one route kind, answered or refused after the key was accepted. */
export interface KeyUsageCount {
  orgId: string;
  keyId: string;
  minute: Date;
  routeKind: KeyRouteKind;
  count: number;
}

/** The same, summed over one UTC day (`YYYY-MM-DD`). */
export interface KeyUsageDayCount {
  keyId: string;
  day: string;
  routeKind: KeyRouteKind;
  count: number;
}

/** The same, summed over one hour. */
export interface UsageHourCount {
  hour: Date;
  credentialKind: CredentialKind;
  routeKind: CallRouteKind;
  code: string;
  count: number;
}

export interface UsageStore {
  /**
   * Adds the counts, and the per-key counts summed per UTC day, to what is stored (one statement: all
   * rows or none); the organization counts' keys must be distinct.
   */
  addUsage(counts: readonly UsageCount[], keyCounts?: readonly KeyUsageCount[]): Promise<void>;
  /** The organization's per-key counts of the UTC days from..to (`YYYY-MM-DD`, both included). */
  readKeyUsageByDay(input: { orgId: string; from: string; to: string }): Promise<KeyUsageDayCount[]>;
  /** The organization's counts with from <= minute < to, summed per UTC hour, oldest first. */
  readUsageByHour(input: { orgId: string; from: Date; to: Date }): Promise<UsageHourCount[]>;
}

interface UsageHourRow {
  hour_epoch_seconds: number;
  credential_kind: CredentialKind;
  route_kind: CallRouteKind;
  code: string;
  count: number;
}

/** The gateways' per-minute usage counters. */
export function createUsageStore(sql: SqlClient): UsageStore {
  return {
    async addUsage(counts, keyCounts = []) {
      if (counts.length === 0 && keyCounts.length === 0) return;
      // Both inserts in one statement, so a failed write leaves nothing to count twice on the retry.
      // The key rows are summed per day first: one statement may not update a row twice.
      await sql.query(
        `WITH minutes AS (
           INSERT INTO usage_minutes (org_id, minute, credential_kind, route_kind, code, count)
           SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::bigint[])
           ON CONFLICT (org_id, minute, credential_kind, route_kind, code)
           DO UPDATE SET count = usage_minutes.count + EXCLUDED.count
           RETURNING 1
         ), key_days AS (
           INSERT INTO api_key_usage_days (key_id, day, route_kind, org_id, count)
           SELECT key_id, (minute AT TIME ZONE 'UTC')::date, route_kind, min(org_id), sum(count)
           FROM unnest($7::text[], $8::text[], $9::timestamptz[], $10::text[], $11::bigint[])
             AS k (org_id, key_id, minute, route_kind, count)
           GROUP BY 1, 2, 3
           ON CONFLICT (key_id, day, route_kind)
           DO UPDATE SET count = api_key_usage_days.count + EXCLUDED.count
           RETURNING 1
         )
         SELECT (SELECT count(*) FROM minutes) AS minutes, (SELECT count(*) FROM key_days) AS key_days`,
        [
          counts.map((c) => c.orgId),
          counts.map((c) => c.minute.toISOString()),
          counts.map((c) => c.credentialKind),
          counts.map((c) => c.routeKind ?? ""),
          counts.map((c) => c.code),
          counts.map((c) => c.count),
          keyCounts.map((c) => c.orgId),
          keyCounts.map((c) => c.keyId),
          keyCounts.map((c) => c.minute.toISOString()),
          keyCounts.map((c) => c.routeKind),
          keyCounts.map((c) => c.count),
        ],
      );
    },

    async readKeyUsageByDay({ orgId, from, to }) {
      const rows = await sql.query<{ key_id: string; day: string; route_kind: KeyRouteKind; count: number }>(
        `SELECT key_id, to_char(day, 'YYYY-MM-DD') AS day, route_kind, count::float8 AS count
         FROM api_key_usage_days
         WHERE org_id = $1 AND day >= $2::date AND day <= $3::date
         ORDER BY key_id, day, route_kind`,
        [orgId, from, to],
      );
      return rows.map((row) => ({
        keyId: row.key_id,
        day: row.day,
        routeKind: row.route_kind,
        count: Number(row.count),
      }));
    },

    async readUsageByHour({ orgId, from, to }) {
      // Epoch arithmetic, so the hour does not depend on the session's time zone.
      const rows = await sql.query<UsageHourRow>(
        `SELECT (floor(extract(epoch FROM minute) / 3600) * 3600)::float8 AS hour_epoch_seconds,
                credential_kind, route_kind, code, sum(count)::float8 AS count
         FROM usage_minutes
         WHERE org_id = $1 AND minute >= $2 AND minute < $3
         GROUP BY 1, 2, 3, 4
         ORDER BY 1, 2, 3, 4`,
        [orgId, from.toISOString(), to.toISOString()],
      );
      return rows.map((row) => ({
        hour: new Date(Number(row.hour_epoch_seconds) * 1000),
        credentialKind: row.credential_kind,
        routeKind: row.route_kind,
        code: row.code,
        count: Number(row.count),
      }));
    },
  };
}
