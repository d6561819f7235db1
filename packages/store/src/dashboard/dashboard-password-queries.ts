import type { SqlClient } from "../sql-client.js";
import type { DashboardStore } from "./dashboard-records.js";

/** The accounts' password hashes: changed (ending every session), or upgraded to a newer cost. */
export function dashboardPasswordQueries(
  sql: SqlClient,
): Pick<DashboardStore, "changePassword" | "upgradePasswordHash"> {
  return {
    async changePassword(accountId, passwordHash) {
      await sql.transaction(async (tx) => {
        await tx.query("UPDATE dashboard_accounts SET password_hash = $2 WHERE id = $1", [
          accountId,
          passwordHash,
        ]);
        await tx.query("DELETE FROM dashboard_sessions WHERE account_id = $1", [accountId]);
      });
    },

    async upgradePasswordHash(accountId, previousHash, passwordHash) {
      await sql.query(
        "UPDATE dashboard_accounts SET password_hash = $3 WHERE id = $1 AND password_hash = $2",
        [accountId, previousHash, passwordHash],
      );
    },
  };
}
