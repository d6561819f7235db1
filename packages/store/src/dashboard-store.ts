import type { SqlClient, SqlExecutor } from "./sql-client.js";

export type DashboardRole = "member" | "operator";

export interface DashboardAccountRecord {
  accountId: string;
  email: string;
  role: DashboardRole;
  /** The member's organization; null for an operator. */
  orgId: string | null;
  passwordHash: string | null;
  createdAt: Date;
}

export interface DashboardInviteRecord {
  account: DashboardAccountRecord;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

export interface DashboardSessionRecord {
  account: DashboardAccountRecord;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export interface NewDashboardSession {
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
}

export type RedeemInviteOutcome =
  | { redeemed: true; account: DashboardAccountRecord }
  | { redeemed: false; reason: "not-found" | "used" | "expired" };

/** Dashboard accounts, their one-time invites and their sessions (every token as SHA-256 only). */
export interface DashboardStore {
  /** Creates the account unless the email has one; either way the account the email names. */
  ensureAccount(input: {
    accountId: string;
    email: string;
    role: DashboardRole;
    orgId: string | null;
    at: Date;
  }): Promise<DashboardAccountRecord>;
  findAccountByEmail(email: string): Promise<DashboardAccountRecord | undefined>;
  insertInvite(input: {
    tokenHash: string;
    accountId: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  findInvite(tokenHash: string): Promise<DashboardInviteRecord | undefined>;
  /**
   * In one transaction: marks an unused, unexpired invite used, sets the password when one is given
   * (ending every session of the account), and opens the new session.
   */
  redeemInvite(input: {
    tokenHash: string;
    at: Date;
    passwordHash: string | null;
    session: NewDashboardSession;
  }): Promise<RedeemInviteOutcome>;
  createSession(input: NewDashboardSession & { accountId: string }): Promise<void>;
  findSession(tokenHash: string): Promise<DashboardSessionRecord | undefined>;
  touchSession(tokenHash: string, at: Date): Promise<void>;
  deleteSession(tokenHash: string): Promise<void>;
  /** Sets the password and ends every session of the account, in one transaction. */
  changePassword(accountId: string, passwordHash: string): Promise<void>;
}

interface AccountRow {
  id: string;
  email: string;
  role: DashboardRole;
  org_id: string | null;
  password_hash: string | null;
  created_at: Date;
}

const ACCOUNT_COLUMNS = "a.id, a.email, a.role, a.org_id, a.password_hash, a.created_at";

/** One new session row: sign-in and invite redemption both open sessions this way. */
async function insertSession(
  sql: SqlExecutor,
  { tokenHash, accountId, createdAt, expiresAt }: NewDashboardSession & { accountId: string },
): Promise<void> {
  await sql.query(
    `INSERT INTO dashboard_sessions (token_hash, account_id, created_at, last_seen_at, expires_at)
     VALUES ($1, $2, $3, $3, $4)`,
    [tokenHash, accountId, createdAt.toISOString(), expiresAt.toISOString()],
  );
}

function toAccount(row: AccountRow): DashboardAccountRecord {
  return {
    accountId: row.id,
    email: row.email,
    role: row.role,
    orgId: row.org_id,
    passwordHash: row.password_hash,
    createdAt: row.created_at,
  };
}

export function createDashboardStore(sql: SqlClient): DashboardStore {
  const findAccountByEmail = async (email: string) => {
    const [row] = await sql.query<AccountRow>(
      `SELECT ${ACCOUNT_COLUMNS} FROM dashboard_accounts a WHERE a.email = $1`,
      [email],
    );
    return row ? toAccount(row) : undefined;
  };

  return {
    async ensureAccount({ accountId, email, role, orgId, at }) {
      await sql.query(
        `INSERT INTO dashboard_accounts (id, email, role, org_id, created_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT ON CONSTRAINT dashboard_accounts_email_unique DO NOTHING`,
        [accountId, email, role, orgId, at.toISOString()],
      );
      return (await findAccountByEmail(email))!;
    },

    findAccountByEmail,

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
        return { redeemed: true, account: toAccount(account!) };
      });
    },

    createSession(input) {
      return insertSession(sql, input);
    },

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

    async changePassword(accountId, passwordHash) {
      await sql.transaction(async (tx) => {
        await tx.query("UPDATE dashboard_accounts SET password_hash = $2 WHERE id = $1", [
          accountId,
          passwordHash,
        ]);
        await tx.query("DELETE FROM dashboard_sessions WHERE account_id = $1", [accountId]);
      });
    },
  };
}
