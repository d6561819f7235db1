import { createHash, randomBytes } from "node:crypto";
import type { Clock } from "@hub/clock";
import type { AccessStore, DashboardRole, DashboardStore } from "@hub/store";
import { adminLimits } from "./admin-limits.js";
import { AdminRefusal } from "./admin-refusal.js";
import { newResourceId } from "./resource-id.js";

/** A one-time dashboard sign-in link's secret part; only its SHA-256 is stored. */
export interface DashboardInvite {
  accountId: string;
  email: string;
  role: DashboardRole;
  orgId: string | null;
  /** Shown once: the link is `<dashboard url>/sign-in/<token>`. */
  token: string;
  expiresAt: string;
}

/** The invite verbs of `hub admin member|operator invite` and the dashboard's operator pages. */
export interface AccountAdmin {
  /** A member account of the organization (made on the first invite) and a new one-time link, valid 24 h. */
  inviteMember(input: { orgId: string; email: string }): Promise<{ invite: DashboardInvite }>;
  /** An operator account (made on the first invite) and a new one-time link, valid 24 h. */
  inviteOperator(input: { email: string }): Promise<{ invite: DashboardInvite }>;
}

/** The SHA-256 (hex) under which a dashboard invite or session token is stored. */
export function hashDashboardToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

const EMAIL = /^[^\s@<>"',;]+@[^\s@<>"',;]+\.[^\s@<>"',;.]+$/;

/** An email address as accounts hold it: trimmed and lowercased, one `@`, a dotted domain, at most 254 characters. */
export function normaliseEmail(input: string): string {
  const email = input.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) {
    throw new AdminRefusal("invalid-email", `${JSON.stringify(input)} is not an email address`);
  }
  return email;
}

export function createAccountAdmin(deps: {
  store: AccessStore;
  accounts: DashboardStore;
  clock: Clock;
}): AccountAdmin {
  const { store, accounts, clock } = deps;

  const invite = async (email: string, role: DashboardRole, orgId: string | null) => {
    const at = new Date(clock.now());
    const account = await accounts.ensureAccount({
      accountId: newResourceId("acct_"),
      email,
      role,
      orgId,
      ...(role === "member" ? { orgRole: "owner-if-none" as const } : {}),
      at,
    });
    if (account.role !== role || account.orgId !== orgId) {
      throw new AdminRefusal(
        "account-exists",
        account.role === "operator"
          ? `${email} already has an operator account`
          : `${email} already has an account in organization ${account.orgId}`,
      );
    }
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(at.getTime() + adminLimits.inviteLifetimeSeconds * 1000);
    await accounts.insertInvite({
      tokenHash: hashDashboardToken(token),
      accountId: account.accountId,
      createdAt: at,
      expiresAt,
    });
    const created: DashboardInvite = {
      accountId: account.accountId,
      email,
      role,
      orgId,
      token,
      expiresAt: expiresAt.toISOString(),
    };
    return { invite: created };
  };

  return {
    async inviteMember({ orgId, email }) {
      const normalised = normaliseEmail(email);
      if (!(await store.getOrganization(orgId))) {
        throw new AdminRefusal("organization-not-found", `organization ${orgId} does not exist`);
      }
      return invite(normalised, "member", orgId);
    },
    async inviteOperator({ email }) {
      return invite(normaliseEmail(email), "operator", null);
    },
  };
}
