import type { SqlClient } from "../sql-client.js";
import type { DashboardStore } from "./dashboard-records.js";

/** Two-factor: TOTP secrets and steps, and recovery codes. */
export function dashboardTwoFactorQueries(
  sql: SqlClient,
): Pick<
  DashboardStore,
  "setTotpSecret" | "enableTotp" | "disableTotp" | "useTotpStep" | "useRecoveryCode" | "unusedRecoveryCodes"
> {
  return {
    async setTotpSecret(accountId, secret) {
      await sql.query(
        "UPDATE dashboard_accounts SET totp_secret = $2 WHERE id = $1 AND totp_enabled_at IS NULL",
        [accountId, secret],
      );
    },

    async enableTotp(accountId, { at, step, recoveryCodeHashes }) {
      await sql.transaction(async (tx) => {
        await tx.query(
          "UPDATE dashboard_accounts SET totp_enabled_at = $2, totp_last_step = $3 WHERE id = $1",
          [accountId, at.toISOString(), step],
        );
        await tx.query("DELETE FROM dashboard_recovery_codes WHERE account_id = $1", [accountId]);
        for (const hash of recoveryCodeHashes)
          await tx.query("INSERT INTO dashboard_recovery_codes (account_id, code_hash) VALUES ($1, $2)", [
            accountId,
            hash,
          ]);
      });
    },

    async disableTotp(accountId) {
      await sql.transaction(async (tx) => {
        await tx.query(
          `UPDATE dashboard_accounts SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL
           WHERE id = $1`,
          [accountId],
        );
        await tx.query("DELETE FROM dashboard_recovery_codes WHERE account_id = $1", [accountId]);
      });
    },

    async useTotpStep(accountId, step) {
      const rows = await sql.query<{ id: string }>(
        `UPDATE dashboard_accounts SET totp_last_step = $2
         WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
        [accountId, step],
      );
      return rows.length === 1;
    },

    async useRecoveryCode(accountId, codeHash, at) {
      const rows = await sql.query<{ code_hash: string }>(
        `UPDATE dashboard_recovery_codes SET used_at = $3
         WHERE account_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING code_hash`,
        [accountId, codeHash, at.toISOString()],
      );
      return rows.length === 1;
    },

    async unusedRecoveryCodes(accountId) {
      const [row] = await sql.query<{ count: string | number }>(
        "SELECT count(*) AS count FROM dashboard_recovery_codes WHERE account_id = $1 AND used_at IS NULL",
        [accountId],
      );
      return Number(row?.count ?? 0);
    },
  };
}
