import type { SqlClient } from "../sql-client.js";
import type { DashboardStore } from "./dashboard-records.js";
import { ACCOUNT_COLUMNS, type AccountRow, toAccount } from "./dashboard-rows.js";

/** Sign-ins waiting for a second factor. */
export function dashboardPendingSignInQueries(
  sql: SqlClient,
): Pick<DashboardStore, "createPendingSignIn" | "findPendingSignIn" | "deletePendingSignIn"> {
  return {
    async createPendingSignIn({ tokenHash, accountId, createdAt, expiresAt }) {
      await sql.query(
        `INSERT INTO dashboard_pending_sign_ins (token_hash, account_id, created_at, expires_at)
         VALUES ($1, $2, $3, $4)`,
        [tokenHash, accountId, createdAt.toISOString(), expiresAt.toISOString()],
      );
    },

    async findPendingSignIn(tokenHash) {
      const [row] = await sql.query<AccountRow & { pending_expires_at: Date }>(
        `SELECT ${ACCOUNT_COLUMNS}, p.expires_at AS pending_expires_at
         FROM dashboard_pending_sign_ins p JOIN dashboard_accounts a ON a.id = p.account_id WHERE p.token_hash = $1`,
        [tokenHash],
      );
      return row ? { account: toAccount(row), expiresAt: row.pending_expires_at } : undefined;
    },

    async deletePendingSignIn(tokenHash) {
      await sql.query("DELETE FROM dashboard_pending_sign_ins WHERE token_hash = $1", [tokenHash]);
    },
  };
}
