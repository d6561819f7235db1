import type { MemberInfo } from "@hub/admin";
import type { AdminRequest } from "./admin-request.js";
import type { AdminResult } from "./execute-admin-request.js";

type TeamRequest = Extract<
  AdminRequest,
  { verb: "org.disable" | "org.enable" | "member.list" | "member.remove" }
>;

function memberLine(member: MemberInfo): string {
  return `${member.accountId}  ${member.role.padEnd(6)}  joined ${member.joinedAt}  last sign-in ${member.lastSignInAt ?? "never"}  two-factor ${member.twoFactor ? "on " : "off"}  ${member.email}${member.invited ? "  (invitation not used yet)" : ""}`;
}

/** The readable rendering of the member and organization switch verbs (without --json). */
export function formatTeamResult(request: TeamRequest, result: AdminResult): string {
  switch (request.verb) {
    case "org.disable":
    case "org.enable":
      return result.disabledAt
        ? `disabled organization ${request.orgId} at ${String(result.disabledAt)}: the gateway refuses its keys (EPX0002) and its project id (EPX0009) within 2 seconds, until it is enabled`
        : `enabled organization ${request.orgId}: its keys and project id work again within 2 seconds`;
    case "member.list": {
      const members = result.members as MemberInfo[];
      return members.length === 0 ? `no members in ${request.orgId}` : members.map(memberLine).join("\n");
    }
    case "member.remove": {
      const member = result.member as MemberInfo;
      return `removed ${member.email} (${member.role}, ${member.accountId}) from ${request.orgId}: their sessions ended and their password signs in no more`;
    }
  }
}
