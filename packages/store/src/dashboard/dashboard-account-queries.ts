import { requiredRow } from "../required-row.js";
import type { SqlClient } from "../sql-client.js";
import type { DashboardStore } from "./dashboard-records.js";
import { ACCOUNT_COLUMNS, type AccountRow, toAccount } from "./dashboard-rows.js";

/** The accounts: members and operators as they sign in, their passwords and their state. */
export function dashboardAccountQueries(
  sql: SqlClient,
): Pick<
  DashboardStore,
  "ensureAccount" | "findAccountByEmail" | "findAccountById" | "setAccountDisabled" | "recordSignIn"
> {
  const findAccountByEmail = async (email: string) => {
    const [row] = await sql.query<AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM dashboard_accounts a WHERE a.email = $1`,
      [email],
    );
    return row ? toAccount(row) : undefined;
  };

  const findAccountById = async (accountId: string) => {
    const [row] = await sql.query<AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM dashboard_accounts a WHERE a.id = $1`,
      [accountId],
    );
    return row ? toAccount(row) : undefined;
  };

  return {
    async ensureAccount({ accountId, email, role, orgId, orgRole, at }) {
      const wanted = role === "operator" ? null : (orgRole ?? "member");
      await sql.query(
        `INSERT INTO dashboard_accounts (id, email, role, org_id, org_role, created_at)
         SELECT $1, $2, $3, $4,
           CASE WHEN $5::text = 'owner-if-none' THEN
             CASE WHEN EXISTS (SELECT 1 FROM dashboard_accounts WHERE org_id = $4 AND org_role = 'owner')
               THEN 'member' ELSE 'owner' END
           ELSE $5::text END,
           $6
         ON CONFLICT ON CONSTRAINT dashboard_accounts_email_unique DO NOTHING`,
        [accountId, email, role, orgId, wanted, at.toISOString()],
      );
      return requiredRow(await findAccountByEmail(email), "the account just inserted");
    },

    findAccountByEmail,
    findAccountById,

    async setAccountDisabled(accountId, at) {
      await sql.transaction(async (tx) => {
        await tx.query("UPDATE dashboard_accounts SET disabled_at = $2 WHERE id = $1", [
          accountId,
          at?.toISOString() ?? null,
        ]);
        if (at) {
          await tx.query("DELETE FROM dashboard_sessions WHERE account_id = $1", [accountId]);
          await tx.query("DELETE FROM dashboard_pending_sign_ins WHERE account_id = $1", [accountId]);
        }
      });
    },

    async recordSignIn(accountId, at) {
      await sql.query("UPDATE dashboard_accounts SET last_sign_in_at = $2 WHERE id = $1", [
        accountId,
        at.toISOString(),
      ]);
    },
  };
}
