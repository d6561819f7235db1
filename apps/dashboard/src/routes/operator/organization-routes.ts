import { AdminRefusal } from "@hub/admin";
import {
  type DashboardContext,
  type DashboardFastify,
  requireRole,
  seeOther,
  sendPage,
  takeOnce,
} from "../../http/dashboard-context.js";
import { signedInPage } from "../../pages/layout.js";
import { type InviteMessage, organizationBody } from "../../pages/operator-pages.js";
import { organizationDetails } from "./organization-details.js";

/** One organization's page for an operator, and disabling or enabling the organization from it. */
export function registerOrganizationRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get<{ Params: { orgId: string } }>("/organizations/:orgId", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const found = await organizationDetails(context, viewer, request.params.orgId);
    if (!found) return reply.callNotFound();
    const once = takeOnce(context, request, reply, viewer) as InviteMessage | undefined;
    const invited = once?.kind === "invite" ? once : undefined;
    return sendPage(
      reply,
      signedInPage(
        { title: found.organization.name, viewer, current: "/organizations" },
        organizationBody({ ...found, invited }),
      ),
    );
  });

  for (const action of ["disable", "enable"] as const) {
    app.post<{ Params: { orgId: string } }>(`/organizations/:orgId/${action}`, async (request, reply) => {
      const viewer = requireRole(request, reply, "operator");
      if (!viewer) return reply;
      try {
        await context
          .adminFor(viewer)
          .setOrganizationDisabled({ orgId: request.params.orgId, disabled: action === "disable" });
      } catch (error) {
        if (error instanceof AdminRefusal && error.code === "organization-not-found")
          return reply.callNotFound();
        throw error;
      }
      return seeOther(reply, `/organizations/${request.params.orgId}`);
    });
  }
}
