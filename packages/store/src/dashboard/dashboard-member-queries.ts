import type { SqlClient, SqlExecutor } from "../sql-client.js";
import type { DashboardStore, OrgRole } from "./dashboard-records.js";
import { ACCOUNT_COLUMNS, type AccountRow, toAccount } from "./dashboard-rows.js";

/** An organization's members and the operators: listed, removed, their roles, and the organization's two-factor rule. */
export function dashboardMemberQueries(
  sql: SqlClient,
): Pick<
  DashboardStore,
  "listOrgMembers" | "listOperators" | "removeMember" | "setOrgRole" | "setOrgRequiresTwoFactor"
> {
  const otherOwner = async (tx: SqlExecutor, orgId: string, accountId: string) => {
    const rows = await tx.query<{ id: string }>(
      "SELECT id FROM dashboard_accounts WHERE org_id = $1 AND org_role = 'owner' AND id <> $2 FOR UPDATE",
      [orgId, accountId],
    );
    return rows.length > 0;
  };

  return {
    async listOrgMembers(orgId) {
      const rows = await sql.query<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM dashboard_accounts a WHERE a.org_id = $1
         ORDER BY a.org_role = 'owner' DESC, a.created_at, a.id`,
        [orgId],
      );
      return rows.map(toAccount);
    },

    async listOperators() {
      const rows = await sql.query<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM dashboard_accounts a WHERE a.role = 'operator' ORDER BY a.created_at, a.id`,
      );
      return rows.map(toAccount);
    },

    async removeMember(accountId) {
      return sql.transaction(async (tx) => {
        const [target] = await tx.query<{ org_id: string | null; org_role: OrgRole | null }>(
          "SELECT org_id, org_role FROM dashboard_accounts WHERE id = $1 AND role = 'member' FOR UPDATE",
          [accountId],
        );
        if (!target) return { removed: false, reason: "not-found" } as const;
        if (
          target.org_role === "owner" &&
          (target.org_id === null || !(await otherOwner(tx, target.org_id, accountId)))
        )
          return { removed: false, reason: "last-owner" } as const;
        await tx.query("DELETE FROM dashboard_sessions WHERE account_id = $1", [accountId]);
        await tx.query("DELETE FROM dashboard_invites WHERE account_id = $1", [accountId]);
        await tx.query("DELETE FROM dashboard_accounts WHERE id = $1", [accountId]);
        return { removed: true } as const;
      });
    },

    async setOrgRole(accountId, orgRole) {
      return sql.transaction(async (tx) => {
        const [target] = await tx.query<{ org_id: string | null; org_role: OrgRole | null }>(
          "SELECT org_id, org_role FROM dashboard_accounts WHERE id = $1 AND role = 'member' FOR UPDATE",
          [accountId],
        );
        if (!target) return { changed: false, reason: "not-found" } as const;
        if (
          target.org_role === "owner" &&
          orgRole !== "owner" &&
          (target.org_id === null || !(await otherOwner(tx, target.org_id, accountId)))
        )
          return { changed: false, reason: "last-owner" } as const;
        await tx.query("UPDATE dashboard_accounts SET org_role = $2 WHERE id = $1", [accountId, orgRole]);
        return { changed: true } as const;
      });
    },

    async setOrgRequiresTwoFactor(orgId, required) {
      await sql.query("UPDATE organizations SET require_two_factor = $2 WHERE id = $1", [orgId, required]);
    },
  };
}
