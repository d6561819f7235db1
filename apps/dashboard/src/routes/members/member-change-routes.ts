import { AdminRefusal } from "@hub/admin";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  keepOnce,
  requireRole,
  seeOther,
  sendPage,
} from "../../http/dashboard-context.js";
import { signedInPage } from "../../pages/layout.js";
import { removeConfirmBody } from "../../pages/members-page.js";
import { membersRefusal, sendMembersPage } from "./send-members-page.js";

/** An owner's changes to one member: remove them (after a confirmation page) or change their role. */
export function registerMemberChangeRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.post("/members/remove", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const form = formOf(request);
    const admin = context.adminFor(viewer);
    try {
      if (!(await admin.canManageMembers(viewer.orgId)))
        throw new AdminRefusal("not-owner", "only an owner manages members");
      const { members } = await admin.listMembers({ orgId: viewer.orgId });
      const member = members.find((m) => m.accountId === form.accountId);
      if (!member) return reply.callNotFound();
      if (form.confirmed !== "1") {
        const { organization } = await admin.showOrganization({ orgId: viewer.orgId });
        return sendPage(
          reply,
          signedInPage(
            { title: "Remove member", viewer, orgName: organization.name, current: "/members" },
            removeConfirmBody(member),
          ),
        );
      }
      await admin.removeMember({ orgId: viewer.orgId, accountId: member.accountId });
      if (member.accountId === viewer.accountId) {
        reply.header("set-cookie", context.cookies.set(context.cookies.session, "", 0));
        return seeOther(reply, "/sign-in?notice=signed-out");
      }
      keepOnce(context, reply, viewer, {
        kind: "notice",
        text: `${member.email} is removed and signed out.`,
      });
      return seeOther(reply, "/members");
    } catch (error) {
      const message = membersRefusal(error);
      const status = (error as AdminRefusal).code === "not-owner" ? 403 : 409;
      return sendMembersPage(context, reply, viewer, { error: message }, status);
    }
  });

  app.post("/members/role", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const form = formOf(request);
    const role = form.role === "owner" ? "owner" : "member";
    try {
      const { member } = await context
        .adminFor(viewer)
        .setMemberRole({ orgId: viewer.orgId, accountId: form.accountId ?? "", role });
      keepOnce(context, reply, viewer, {
        kind: "notice",
        text: `${member.email} is now ${role === "owner" ? "an owner" : "a member"}.`,
      });
      return seeOther(reply, "/members");
    } catch (error) {
      const message = membersRefusal(error);
      if ((error as AdminRefusal).code === "member-not-found") return reply.callNotFound();
      const status = (error as AdminRefusal).code === "not-owner" ? 403 : 409;
      return sendMembersPage(context, reply, viewer, { error: message }, status);
    }
  });
}
