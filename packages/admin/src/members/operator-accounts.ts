import type { DashboardAccountRecord } from "@hub/store";
import { AdminRefusal } from "../admin-refusal.js";
import type { MemberAdminDeps, OperatorInfo } from "../member-admin.js";
import { requireOperator } from "./member-permissions.js";

function operatorInfo(account: DashboardAccountRecord): OperatorInfo {
  return {
    accountId: account.accountId,
    email: account.email,
    joinedAt: account.createdAt.toISOString(),
    lastSignInAt: account.lastSignInAt?.toISOString() ?? null,
    twoFactor: account.totpEnabledAt !== null,
    disabledAt: account.disabledAt?.toISOString() ?? null,
  };
}

export async function listOperators(deps: MemberAdminDeps): Promise<{ operators: OperatorInfo[] }> {
  await requireOperator(deps);
  return { operators: (await deps.accounts.listOperators()).map(operatorInfo) };
}

export async function setOperatorDisabled(
  deps: MemberAdminDeps,
  { accountId, disabled }: { accountId: string; disabled: boolean },
): Promise<{ operator: OperatorInfo }> {
  const { accounts, clock, record } = deps;
  await requireOperator(deps);
  const account = await accounts.findAccountById(accountId);
  if (!account || account.role !== "operator")
    throw new AdminRefusal("operator-not-found", `${accountId} is not an operator account`);
  if (disabled && account.disabledAt === null) {
    const enabled = (await accounts.listOperators()).filter((o) => o.disabledAt === null);
    if (enabled.length <= 1)
      throw new AdminRefusal("last-operator", `${account.email} is the last enabled operator`);
  }
  const at = disabled ? new Date(clock.now()) : null;
  await accounts.setAccountDisabled(accountId, at);
  await record({
    action: disabled ? "operator.disable" : "operator.enable",
    orgId: null,
    target: accountId,
    detail: { email: account.email },
  });
  return { operator: { ...operatorInfo(account), disabledAt: at?.toISOString() ?? null } };
}

export async function setOrganizationDisabled(
  deps: MemberAdminDeps,
  { orgId, disabled }: { orgId: string; disabled: boolean },
): Promise<{ disabledAt: string | null }> {
  await requireOperator(deps);
  const at = disabled ? new Date(deps.clock.now()) : null;
  if (!(await deps.store.setOrganizationDisabled(orgId, at)))
    throw new AdminRefusal("organization-not-found", `organization ${orgId} does not exist`);
  await deps.record({
    action: disabled ? "organization.disable" : "organization.enable",
    orgId,
    target: orgId,
  });
  return { disabledAt: at?.toISOString() ?? null };
}
