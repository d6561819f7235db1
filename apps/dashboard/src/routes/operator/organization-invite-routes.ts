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
import { type InviteMessage, organizationBody } from "../../pages/operator-pages.js";
import { organizationDetails } from "./organization-details.js";

/** The form on an organization's page that invites a member by email; the link is shown once. */
export function registerOrganizationInviteRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.post<{ Params: { orgId: string } }>("/organizations/:orgId/invites", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const email = formOf(request).email ?? "";
    try {
      const { invite } = await context.adminFor(viewer).inviteMember({ orgId: request.params.orgId, email });
      const message: InviteMessage = {
        kind: "invite",
        email: invite.email,
        link: `${context.publicOrigin()}/sign-in/${invite.token}`,
        expiresAt: invite.expiresAt,
      };
      keepOnce(context, reply, viewer, message);
      return seeOther(reply, `/organizations/${request.params.orgId}`);
    } catch (error) {
      if (!(error instanceof AdminRefusal)) throw error;
      if (error.code === "organization-not-found") return reply.callNotFound();
      const found = await organizationDetails(context, viewer, request.params.orgId);
      if (!found) return reply.callNotFound();
      const message =
        error.code === "invalid-email"
          ? "Enter an email address, like name@example.com."
          : `${error.message}.`;
      return sendPage(
        reply,
        signedInPage(
          { title: found.organization.name, viewer, current: "/organizations" },
          organizationBody({ ...found, email, error: message }),
        ),
        400,
      );
    }
  });
}
