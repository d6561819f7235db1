import type { AccountAdmin } from "../account-admin.js";
import type { AdminActionRecorder } from "../admin-action-recorder.js";
import { AdminRefusal } from "../admin-refusal.js";
import type { MemberAdmin } from "../member-admin.js";

/**
 * The invite verbs, each recorded. Where the accounts are at hand (`members`), only who manages the
 * organization's members invites one.
 */
export function auditedInviteVerbs(
  accounts: AccountAdmin,
  members: MemberAdmin | undefined,
  record: AdminActionRecorder,
): AccountAdmin {
  return {
    async inviteMember(input) {
      if (members && !(await members.canManageMembers(input.orgId)))
        throw new AdminRefusal("not-owner", "only an owner of the organization invites members");
      const result = await accounts.inviteMember(input);
      const { accountId, email, orgId, expiresAt } = result.invite;
      await record({ action: "member.invite", orgId, target: accountId, detail: { email, expiresAt } });
      return result;
    },

    async inviteOperator(input) {
      const result = await accounts.inviteOperator(input);
      const { accountId, email, expiresAt } = result.invite;
      await record({
        action: "operator.invite",
        orgId: null,
        target: accountId,
        detail: { email, expiresAt },
      });
      return result;
    },
  };
}
