import type { SqlClient } from "@hub/store";

/** Raw rows for the retention job's test: each table's row with the times the job decides on. */
export function retentionRows(sql: SqlClient) {
  return {
    organization: (id: string, createdAt: string) =>
      sql.query("INSERT INTO organizations (id, name, created_at) VALUES ($1, 'Retention', $2)", [
        id,
        createdAt,
      ]),
    account: (id: string, orgId: string, createdAt: string) =>
      sql.query(
        "INSERT INTO dashboard_accounts (id, email, role, org_role, org_id, created_at) VALUES ($1, 'kept@example.com', 'member', 'member', $2, $3)",
        [id, orgId, createdAt],
      ),
    session: (
      tokenHash: string,
      accountId: string,
      createdAt: string,
      lastSeenAt: string,
      expiresAt: string,
    ) =>
      sql.query(
        "INSERT INTO dashboard_sessions (token_hash, account_id, created_at, last_seen_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
        [tokenHash, accountId, createdAt, lastSeenAt, expiresAt],
      ),
    invite: (
      tokenHash: string,
      accountId: string,
      createdAt: string,
      expiresAt: string,
      usedAt: string | null,
    ) =>
      sql.query(
        "INSERT INTO dashboard_invites (token_hash, account_id, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4, $5)",
        [tokenHash, accountId, createdAt, expiresAt, usedAt],
      ),
    usageMinute: (orgId: string, minute: string) =>
      sql.query(
        "INSERT INTO usage_minutes (org_id, minute, credential_kind, code, count) VALUES ($1, $2, 'api_key', '', 3)",
        [orgId, minute],
      ),
    keyUsageDay: (orgId: string, keyId: string, day: string, routeKind: string) =>
      sql.query(
        "INSERT INTO api_key_usage_days (key_id, day, route_kind, org_id, count) VALUES ($1, $2, $3, $4, 5)",
        [keyId, day, routeKind, orgId],
      ),
    audit: (orgId: string, at: string) =>
      sql.query(
        "INSERT INTO audit_log (at, actor, source, action, org_id) VALUES ($1, 'kept@example.com', 'cli', 'key.create', $2)",
        [at, orgId],
      ),
    async tokenHashes(table: "dashboard_sessions" | "dashboard_invites"): Promise<string[]> {
      const rows = await sql.query<{ token_hash: string }>(`SELECT token_hash FROM ${table} ORDER BY 1`);
      return rows.map((row) => row.token_hash);
    },
    async count(table: string): Promise<number> {
      return Number((await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n);
    },
  };
}
