import type { MemberAdmin, MemberAdminDeps } from "../member-admin.js";
import { canManageMembers } from "./member-permissions.js";
import { listOperators, setOperatorDisabled, setOrganizationDisabled } from "./operator-accounts.js";
import { listMembers, removeMember, setMemberRole, setRequireTwoFactor } from "./organization-members.js";

export function createMemberAdmin(deps: MemberAdminDeps): MemberAdmin {
  return {
    canManageMembers: (orgId) => canManageMembers(deps, orgId),
    listMembers: (input) => listMembers(deps, input),
    removeMember: (input) => removeMember(deps, input),
    setMemberRole: (input) => setMemberRole(deps, input),
    setRequireTwoFactor: (input) => setRequireTwoFactor(deps, input),
    listOperators: () => listOperators(deps),
    setOperatorDisabled: (input) => setOperatorDisabled(deps, input),
    setOrganizationDisabled: (input) => setOrganizationDisabled(deps, input),
  };
}
