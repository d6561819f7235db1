import { requiredRow } from "../required-row.js";
import type { SqlClient } from "../sql-client.js";
import type { DashboardStore, RedeemInviteOutcome } from "./dashboard-records.js";
import { ACCOUNT_COLUMNS, type AccountRow, insertSession, toAccount } from "./dashboard-rows.js";

/** Invitations: a member's sign-in link, redeemed once with a password and a first session. */
export function dashboardInviteQueries(
  sql: SqlClient,
): Pick<DashboardStore, "insertInvite" | "findInvite" | "redeemInvite" | "createSession"> {
  return {
    async insertInvite({ tokenHash, accountId, createdAt, expiresAt }) {
      await sql.query(
        "INSERT INTO dashboard_invites (token_hash, account_id, created_at, expires_at) VALUES ($1, $2, $3, $4)",
        [tokenHash, accountId, createdAt.toISOString(), expiresAt.toISOString()],
      );
    },

    async findInvite(tokenHash) {
      const [row] = await sql.query<
        AccountRow & { invite_created_at: Date; expires_at: Date; used_at: Date | null }
      >(
        `SELECT ${ACCOUNT_COLUMNS}, i.created_at AS invite_created_at, i.expires_at, i.used_at
         FROM dashboard_invites i JOIN dashboard_accounts a ON a.id = i.account_id WHERE i.token_hash = $1`,
        [tokenHash],
      );
      if (!row) return undefined;
      return {
        account: toAccount(row),
        createdAt: row.invite_created_at,
        expiresAt: row.expires_at,
        usedAt: row.used_at,
      };
    },

    async redeemInvite({ tokenHash, at, passwordHash, session }) {
      return sql.transaction(async (tx): Promise<RedeemInviteOutcome> => {
        const [used] = await tx.query<{ account_id: string }>(
          `UPDATE dashboard_invites SET used_at = $2
           WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING account_id`,
          [tokenHash, at.toISOString()],
        );
        if (!used) {
          const [invite] = await tx.query<{ used_at: Date | null }>(
            "SELECT used_at FROM dashboard_invites WHERE token_hash = $1",
            [tokenHash],
          );
          return { redeemed: false, reason: !invite ? "not-found" : invite.used_at ? "used" : "expired" };
        }
        if (passwordHash !== null) {
          await tx.query("UPDATE dashboard_accounts SET password_hash = $2 WHERE id = $1", [
            used.account_id,
            passwordHash,
          ]);
          await tx.query("DELETE FROM dashboard_sessions WHERE account_id = $1", [used.account_id]);
        }
        await insertSession(tx, { ...session, accountId: used.account_id });
        const [account] = await tx.query<AccountRow>(
          `SELECT ${ACCOUNT_COLUMNS} FROM dashboard_accounts a WHERE a.id = $1`,
          [used.account_id],
        );
        return { redeemed: true, account: toAccount(requiredRow(account, "the redeeming account")) };
      });
    },

    createSession(input) {
      return insertSession(sql, input);
    },
  };
}
