import type { DashboardAccountRecord, OrgRole } from "@hub/store";

/** Who a session signs in: what every page and action decides on. */
export interface Viewer {
  accountId: string;
  email: string;
  role: "member" | "operator";
  orgId: string | null;
  /** The member's role in the organization; null for an operator. */
  orgRole: OrgRole | null;
  twoFactor: boolean;
  /** The organization requires two-factor (the member is sent to set it up while it is off). */
  orgRequiresTwoFactor: boolean;
  sessionToken: string;
}

export function viewerOfAccount(account: DashboardAccountRecord, sessionToken: string): Viewer {
  return {
    accountId: account.accountId,
    email: account.email,
    role: account.role,
    orgId: account.orgId,
    orgRole: account.orgRole,
    twoFactor: account.totpEnabledAt !== null,
    orgRequiresTwoFactor: account.orgRequiresTwoFactor,
    sessionToken,
  };
}
