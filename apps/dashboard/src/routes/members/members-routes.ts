import type { AdminRefusal } from "@hub/admin";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  keepOnce,
  requireRole,
  seeOther,
  takeOnce,
} from "../../http/dashboard-context.js";
import type { MemberInviteMessage } from "../../pages/members-page.js";
import { membersRefusal, sendMembersPage } from "./send-members-page.js";

/** The Members page: every member of the viewer's organization; an owner invites and requires two-factor. */
export function registerMembersRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get("/members", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const once = takeOnce(context, request, reply, viewer) as
      | MemberInviteMessage
      | { kind: "notice"; text: string }
      | undefined;
    return sendMembersPage(context, reply, viewer, {
      inviting: (request.query as Record<string, string>).invite === "1",
      ...(once?.kind === "member-invite" ? { invited: once } : {}),
      ...(once?.kind === "notice" ? { notice: once.text } : {}),
    });
  });

  app.post("/members/invites", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const email = formOf(request).email ?? "";
    try {
      const { invite } = await context.adminFor(viewer).inviteMember({ orgId: viewer.orgId, email });
      const message: MemberInviteMessage = {
        kind: "member-invite",
        email: invite.email,
        link: `${context.publicOrigin()}/sign-in/${invite.token}`,
        expiresAt: invite.expiresAt,
      };
      keepOnce(context, reply, viewer, message);
      return seeOther(reply, "/members");
    } catch (error) {
      const message = membersRefusal(error);
      const status = (error as AdminRefusal).code === "not-owner" ? 403 : 400;
      return sendMembersPage(context, reply, viewer, { inviting: true, email, error: message }, status);
    }
  });

  app.post("/members/require-two-factor", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const required = formOf(request).required === "1";
    if (required && !viewer.twoFactor)
      return sendMembersPage(
        context,
        reply,
        viewer,
        { error: "Turn on two-factor authentication for your own account first (Account page)." },
        409,
      );
    try {
      await context.adminFor(viewer).setRequireTwoFactor({ orgId: viewer.orgId, required });
      keepOnce(context, reply, viewer, {
        kind: "notice",
        text: required
          ? "Two-factor authentication is now required: members without it set it up at their next page."
          : "Two-factor authentication is no longer required.",
      });
      return seeOther(reply, "/members");
    } catch (error) {
      return sendMembersPage(context, reply, viewer, { error: membersRefusal(error) }, 403);
    }
  });
}
