export type DashboardRole = "member" | "operator";
/** A member's role in the organization: an owner manages the members; null for an operator. */
export type OrgRole = "owner" | "member";

export interface DashboardAccountRecord {
  accountId: string;
  email: string;
  role: DashboardRole;
  /** The member's organization; null for an operator. */
  orgId: string | null;
  orgRole: OrgRole | null;
  passwordHash: string | null;
  createdAt: Date;
  /** Set while the account may not sign in (operators are disabled, members are removed). */
  disabledAt: Date | null;
  lastSignInAt: Date | null;
  /** The TOTP secret (base32), set when set-up starts; two-factor is on once totpEnabledAt is set. */
  totpSecret: string | null;
  totpEnabledAt: Date | null;
  /** The last TOTP time step a code was accepted for. */
  totpLastStep: number | null;
  /** The member's organization requires two-factor; false for an operator. */
  orgRequiresTwoFactor: boolean;
}

export interface PendingSignInRecord {
  account: DashboardAccountRecord;
  expiresAt: Date;
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
  /** The client's address and user agent at sign-in, shown to the member; null when unknown. */
  address?: string | null;
  userAgent?: string | null;
}

/** One session of an account, as its member lists them. */
export interface DashboardSessionListing {
  tokenHash: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  address: string | null;
  userAgent: string | null;
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
    /** For a member: the role a new account gets; "owner-if-none" makes it owner when the organization has none. */
    orgRole?: OrgRole | "owner-if-none";
    at: Date;
  }): Promise<DashboardAccountRecord>;
  findAccountByEmail(email: string): Promise<DashboardAccountRecord | undefined>;
  findAccountById(accountId: string): Promise<DashboardAccountRecord | undefined>;
  /** The organization's members, owners first, then by joining time. */
  listOrgMembers(orgId: string): Promise<DashboardAccountRecord[]>;
  listOperators(): Promise<DashboardAccountRecord[]>;
  /**
   * Deletes a member with their sessions, invites and codes, in one transaction; refused
   * ("last-owner") when they are the organization's last owner.
   */
  removeMember(
    accountId: string,
  ): Promise<{ removed: true } | { removed: false; reason: "not-found" | "last-owner" }>;
  /** Refused ("last-owner") when it would leave the organization without an owner. */
  setOrgRole(
    accountId: string,
    orgRole: OrgRole,
  ): Promise<{ changed: true } | { changed: false; reason: "not-found" | "last-owner" }>;
  /** Disables (ending every session) or enables an account. */
  setAccountDisabled(accountId: string, at: Date | null): Promise<void>;
  recordSignIn(accountId: string, at: Date): Promise<void>;
  setTotpSecret(accountId: string, secret: string): Promise<void>;
  /** Turns two-factor on with the step of the code that proved it and the recovery codes' hashes. */
  enableTotp(
    accountId: string,
    input: { at: Date; step: number; recoveryCodeHashes: string[] },
  ): Promise<void>;
  disableTotp(accountId: string): Promise<void>;
  /** Accepts the time step once: false when a code of this step or a later one was already used. */
  useTotpStep(accountId: string, step: number): Promise<boolean>;
  /** Marks an unused recovery code used; false when it is unknown or used. */
  useRecoveryCode(accountId: string, codeHash: string, at: Date): Promise<boolean>;
  unusedRecoveryCodes(accountId: string): Promise<number>;
  createPendingSignIn(input: {
    tokenHash: string;
    accountId: string;
    createdAt: Date;
    expiresAt: Date;
  }): Promise<void>;
  findPendingSignIn(tokenHash: string): Promise<PendingSignInRecord | undefined>;
  deletePendingSignIn(tokenHash: string): Promise<void>;
  setOrgRequiresTwoFactor(orgId: string, required: boolean): Promise<void>;
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
  /**
   * Replaces an older-cost hash of the same password, sessions untouched; only while the stored hash is
   * still `previousHash` (a password change in between wins).
   */
  upgradePasswordHash(accountId: string, previousHash: string, passwordHash: string): Promise<void>;
  /** The account's sessions, newest first (expired ones included until they are purged). */
  listSessions(accountId: string): Promise<DashboardSessionListing[]>;
  /** Ends one session of the account; false when the account has none by that hash. */
  deleteSessionOf(accountId: string, tokenHash: string): Promise<boolean>;
  /** Ends every session of the account except one; how many ended. */
  deleteSessionsExcept(accountId: string, keepTokenHash: string): Promise<number>;
}
