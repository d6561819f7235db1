import type { Clock } from "@hub/clock";
import type { AccessStore, DashboardAccountRecord, DashboardStore, OrgRole } from "@hub/store";
import type { AdminActionRecorder } from "./admin-action-recorder.js";
import type { AdminActor } from "./admin-actor.js";

/** A member as the Members page and `hub admin member list` show them. */
export interface MemberInfo {
  accountId: string;
  email: string;
  role: OrgRole;
  /** When the account was made (the first invitation). */
  joinedAt: string;
  lastSignInAt: string | null;
  twoFactor: boolean;
  /** The invitation is not used yet: no password is set. */
  invited: boolean;
}

export interface OperatorInfo {
  accountId: string;
  email: string;
  joinedAt: string;
  lastSignInAt: string | null;
  twoFactor: boolean;
  disabledAt: string | null;
}

/**
 * Managing an organization's members and the operator accounts. An organization's owner (or an
 * operator, or the CLI) lists, removes and changes the role of members and requires two-factor; a
 * member may only list them. Only operators (and the CLI) manage operators and disable organizations.
 */
export interface MemberAdmin {
  listMembers(input: { orgId: string }): Promise<{ members: MemberInfo[] }>;
  /**
   * Ends the member's sessions at once and deletes the account; the last owner cannot be removed. The
   * member is named by account id (the dashboard) or by email (the CLI).
   */
  removeMember(
    input: { orgId: string } & ({ accountId: string } | { email: string }),
  ): Promise<{ member: MemberInfo }>;
  /** The last owner cannot be made a member. */
  setMemberRole(input: { orgId: string; accountId: string; role: OrgRole }): Promise<{ member: MemberInfo }>;
  setRequireTwoFactor(input: { orgId: string; required: boolean }): Promise<{ required: boolean }>;
  listOperators(): Promise<{ operators: OperatorInfo[] }>;
  /** A disabled operator's sessions end and their password no longer signs in; the last enabled one stays. */
  setOperatorDisabled(input: { accountId: string; disabled: boolean }): Promise<{ operator: OperatorInfo }>;
  /** While disabled, the gateway refuses the organization's keys (EPX0002) and project id (EPX0009). */
  setOrganizationDisabled(input: {
    orgId: string;
    disabled: boolean;
  }): Promise<{ disabledAt: string | null }>;
  /** Whether the acting account may manage this organization's members (the CLI and operators may). */
  canManageMembers(orgId: string): Promise<boolean>;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function memberInfo(account: DashboardAccountRecord): MemberInfo {
  return {
    accountId: account.accountId,
    email: account.email,
    role: account.orgRole ?? "member",
    joinedAt: account.createdAt.toISOString(),
    lastSignInAt: iso(account.lastSignInAt),
    twoFactor: account.totpEnabledAt !== null,
    invited: account.passwordHash === null,
  };
}

export interface MemberAdminDeps {
  store: AccessStore;
  accounts: DashboardStore;
  actor: AdminActor;
  record: AdminActionRecorder;
  clock: Clock;
}
