import type { DashboardAccountRecord } from "@hub/store";
import { AdminRefusal } from "../admin-refusal.js";
import type { MemberAdminDeps } from "../member-admin.js";

/** The dashboard account acting; undefined for the CLI. */
export async function actingAccount({
  actor,
  accounts,
}: MemberAdminDeps): Promise<DashboardAccountRecord | undefined> {
  return actor.source === "dashboard" ? await accounts.findAccountById(actor.accountId) : undefined;
}

/** The CLI and operators manage every organization's members; an owner manages their own organization's. */
export async function canManageMembers(deps: MemberAdminDeps, orgId: string): Promise<boolean> {
  if (deps.actor.source === "cli") return true;
  const who = await actingAccount(deps);
  return who?.role === "operator" || (who?.orgId === orgId && who.orgRole === "owner");
}

export async function requireOwner(deps: MemberAdminDeps, orgId: string): Promise<void> {
  if (!(await canManageMembers(deps, orgId)))
    throw new AdminRefusal("not-owner", "only an owner of the organization manages its members");
}

export async function requireOperator(deps: MemberAdminDeps): Promise<void> {
  const isOperator = deps.actor.source === "cli" || (await actingAccount(deps))?.role === "operator";
  if (!isOperator) throw new AdminRefusal("not-owner", "only an operator may do this");
}
