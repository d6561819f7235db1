import type { DashboardAccountRecord, OrgRole } from "@hub/store";
import { normaliseEmail } from "../account-admin.js";
import { AdminRefusal } from "../admin-refusal.js";
import { type MemberAdminDeps, type MemberInfo, memberInfo } from "../member-admin.js";
import { actingAccount, requireOwner } from "./member-permissions.js";

async function requireOrganization({ store }: MemberAdminDeps, orgId: string): Promise<void> {
  if (!(await store.getOrganization(orgId)))
    throw new AdminRefusal("organization-not-found", `organization ${orgId} does not exist`);
}

async function memberOf({ accounts }: MemberAdminDeps, orgId: string, accountId: string) {
  const account = await accounts.findAccountById(accountId);
  if (!account || account.role !== "member" || account.orgId !== orgId)
    throw new AdminRefusal("member-not-found", `${accountId} is not a member of organization ${orgId}`);
  return account;
}

const lastOwner = (email: string) =>
  new AdminRefusal(
    "last-owner",
    `${email} is the organization's last owner; make another member owner first`,
  );

export async function listMembers(deps: MemberAdminDeps, { orgId }: { orgId: string }) {
  if (deps.actor.source === "dashboard") {
    const who = await actingAccount(deps);
    if (who?.role !== "operator" && who?.orgId !== orgId)
      throw new AdminRefusal("not-owner", "only the organization's members see its members");
  }
  await requireOrganization(deps, orgId);
  return { members: (await deps.accounts.listOrgMembers(orgId)).map(memberInfo) };
}

export async function removeMember(
  deps: MemberAdminDeps,
  input: { orgId: string } & ({ accountId: string } | { email: string }),
): Promise<{ member: MemberInfo }> {
  const { accounts, record } = deps;
  const { orgId } = input;
  await requireOwner(deps, orgId);
  let account: DashboardAccountRecord;
  if ("email" in input) {
    const email = normaliseEmail(input.email);
    const found = await accounts.findAccountByEmail(email);
    if (found?.role !== "member" || found.orgId !== orgId)
      throw new AdminRefusal("member-not-found", `${email} is not a member of organization ${orgId}`);
    account = found;
  } else account = await memberOf(deps, orgId, input.accountId);
  const { accountId } = account;
  const outcome = await accounts.removeMember(accountId);
  if (!outcome.removed) {
    if (outcome.reason === "last-owner") throw lastOwner(account.email);
    throw new AdminRefusal("member-not-found", `${accountId} is not a member of organization ${orgId}`);
  }
  await record({ action: "member.remove", orgId, target: accountId, detail: { email: account.email } });
  return { member: memberInfo(account) };
}

export async function setMemberRole(
  deps: MemberAdminDeps,
  { orgId, accountId, role }: { orgId: string; accountId: string; role: OrgRole },
): Promise<{ member: MemberInfo }> {
  await requireOwner(deps, orgId);
  if (role !== "owner" && role !== "member")
    throw new AdminRefusal("invalid-argument", "a role is owner or member");
  const account = await memberOf(deps, orgId, accountId);
  if (account.orgRole === role) return { member: memberInfo(account) };
  const outcome = await deps.accounts.setOrgRole(accountId, role);
  if (!outcome.changed) {
    if (outcome.reason === "last-owner") throw lastOwner(account.email);
    throw new AdminRefusal("member-not-found", `${accountId} is not a member of organization ${orgId}`);
  }
  await deps.record({
    action: "member.set-role",
    orgId,
    target: accountId,
    detail: { email: account.email, from: account.orgRole, to: role },
  });
  return { member: { ...memberInfo(account), role } };
}

export async function setRequireTwoFactor(
  deps: MemberAdminDeps,
  { orgId, required }: { orgId: string; required: boolean },
): Promise<{ required: boolean }> {
  await requireOwner(deps, orgId);
  await requireOrganization(deps, orgId);
  await deps.accounts.setOrgRequiresTwoFactor(orgId, required);
  await deps.record({
    action: "organization.require-two-factor",
    orgId,
    target: orgId,
    detail: { required },
  });
  return { required };
}
