import { AdminRefusal } from "@hub/admin";
import type { FastifyReply } from "fastify";
import { type DashboardContext, type MemberViewer, sendPage } from "../../http/dashboard-context.js";
import { signedInPage } from "../../pages/layout.js";
import { membersBody } from "../../pages/members-page.js";

/** The Members page: every member of the viewer's organization, with what the action asks to show. */
export async function sendMembersPage(
  context: DashboardContext,
  reply: FastifyReply,
  viewer: MemberViewer,
  extra: Omit<Parameters<typeof membersBody>[0], "viewer" | "members" | "requireTwoFactor"> = {},
  status = 200,
): Promise<FastifyReply> {
  const admin = context.adminFor(viewer);
  const [{ organization }, { members }] = await Promise.all([
    admin.showOrganization({ orgId: viewer.orgId }),
    admin.listMembers({ orgId: viewer.orgId }),
  ]);
  return sendPage(
    reply,
    signedInPage(
      { title: "Members", viewer, orgName: organization.name, current: "/members" },
      membersBody({ viewer, members, requireTwoFactor: organization.requireTwoFactor, ...extra }),
    ),
    status,
  );
}

/** What the Members page says of a refused action; anything but a refusal is thrown on. */
export function membersRefusal(error: unknown): string {
  if (!(error instanceof AdminRefusal)) throw error;
  if (error.code === "invalid-email") return "Enter an email address, like name@example.com.";
  if (error.code === "not-owner") return "Only an owner of the organization can do this.";
  return `${error.message.charAt(0).toUpperCase()}${error.message.slice(1)}.`;
}
