import type { SqlClient } from "../sql-client.js";
import type { DashboardStore } from "./dashboard-records.js";
import { ACCOUNT_COLUMNS, type AccountRow, toAccount } from "./dashboard-rows.js";

/** Sessions: one row per signed-in browser, listed and ended by its account. */
export function dashboardSessionQueries(
  sql: SqlClient,
): Pick<
  DashboardStore,
  | "findSession"
  | "touchSession"
  | "deleteSession"
  | "listSessions"
  | "deleteSessionOf"
  | "deleteSessionsExcept"
> {
  return {
    async findSession(tokenHash) {
      const [row] = await sql.query<
        AccountRow & { session_created_at: Date; last_seen_at: Date; expires_at: Date }
      >(
        `SELECT ${ACCOUNT_COLUMNS}, s.created_at AS session_created_at, s.last_seen_at, s.expires_at
         FROM dashboard_sessions s JOIN dashboard_accounts a ON a.id = s.account_id WHERE s.token_hash = $1`,
        [tokenHash],
      );
      if (!row) return undefined;
      return {
        account: toAccount(row),
        createdAt: row.session_created_at,
        lastSeenAt: row.last_seen_at,
        expiresAt: row.expires_at,
      };
    },

    async touchSession(tokenHash, at) {
      await sql.query(
        "UPDATE dashboard_sessions SET last_seen_at = $2 WHERE token_hash = $1 AND last_seen_at < $2",
        [tokenHash, at.toISOString()],
      );
    },

    async deleteSession(tokenHash) {
      await sql.query("DELETE FROM dashboard_sessions WHERE token_hash = $1", [tokenHash]);
    },

    async listSessions(accountId) {
      const rows = await sql.query<{
        token_hash: string;
        created_at: Date;
        last_seen_at: Date;
        expires_at: Date;
        address: string | null;
        user_agent: string | null;
      }>(
        `SELECT token_hash, created_at, last_seen_at, expires_at, address, user_agent
         FROM dashboard_sessions WHERE account_id = $1 ORDER BY created_at DESC, token_hash LIMIT 200`,
        [accountId],
      );
      return rows.map((row) => ({
        tokenHash: row.token_hash,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        expiresAt: row.expires_at,
        address: row.address,
        userAgent: row.user_agent,
      }));
    },

    async deleteSessionOf(accountId, tokenHash) {
      const rows = await sql.query(
        "DELETE FROM dashboard_sessions WHERE account_id = $1 AND token_hash = $2 RETURNING token_hash",
        [accountId, tokenHash],
      );
      return rows.length > 0;
    },

    async deleteSessionsExcept(accountId, keepTokenHash) {
      const rows = await sql.query(
        "DELETE FROM dashboard_sessions WHERE account_id = $1 AND token_hash <> $2 RETURNING token_hash",
        [accountId, keepTokenHash],
      );
      return rows.length;
    },
  };
}
