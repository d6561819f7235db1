import type { SqlExecutor } from "../sql-client.js";
import type {
  DashboardAccountRecord,
  DashboardRole,
  NewDashboardSession,
  OrgRole,
} from "./dashboard-records.js";

export interface AccountRow {
  id: string;
  email: string;
  role: DashboardRole;
  org_id: string | null;
  org_role: OrgRole | null;
  password_hash: string | null;
  created_at: Date;
  disabled_at: Date | null;
  last_sign_in_at: Date | null;
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: string | number | null;
  require_two_factor: boolean | null;
}

export const ACCOUNT_COLUMNS = `a.id, a.email, a.role, a.org_id, a.org_role, a.password_hash, a.created_at, a.disabled_at,
  a.last_sign_in_at, a.totp_secret, a.totp_enabled_at, a.totp_last_step,
  (SELECT o.require_two_factor FROM organizations o WHERE o.id = a.org_id) AS require_two_factor`;

/** One new session row: sign-in and invite redemption both open sessions this way. */
export async function insertSession(
  sql: SqlExecutor,
  {
    tokenHash,
    accountId,
    createdAt,
    expiresAt,
    address,
    userAgent,
  }: NewDashboardSession & { accountId: string },
): Promise<void> {
  await sql.query(
    `INSERT INTO dashboard_sessions (token_hash, account_id, created_at, last_seen_at, expires_at, address, user_agent)
     VALUES ($1, $2, $3, $3, $4, $5, $6)`,
    [
      tokenHash,
      accountId,
      createdAt.toISOString(),
      expiresAt.toISOString(),
      address ?? null,
      userAgent ?? null,
    ],
  );
}

export function toAccount(row: AccountRow): DashboardAccountRecord {
  return {
    accountId: row.id,
    email: row.email,
    role: row.role,
    orgId: row.org_id,
    orgRole: row.org_role,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
    lastSignInAt: row.last_sign_in_at,
    totpSecret: row.totp_secret,
    totpEnabledAt: row.totp_enabled_at,
    totpLastStep: row.totp_last_step === null ? null : Number(row.totp_last_step),
    orgRequiresTwoFactor: row.require_two_factor === true,
  };
}
