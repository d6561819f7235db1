import { AdminRefusal } from "@hub/admin";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  requireRole,
  seeOther,
  sendPage,
} from "../../http/dashboard-context.js";
import { signedInPage } from "../../pages/layout.js";
import { organizationsBody } from "../../pages/operator-pages.js";

/** The operators' Organizations page: the list, a page at a time, and the form that creates one. */
export function registerOrganizationsRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get("/organizations", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const after = (request.query as Record<string, string>).after;
    const page = await context
      .adminFor(viewer)
      .listOrganizations({ limit: 100, ...(after ? { after } : {}) });
    return sendPage(
      reply,
      signedInPage({ title: "Organizations", viewer, current: "/organizations" }, organizationsBody(page)),
    );
  });

  app.post("/organizations", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const admin = context.adminFor(viewer);
    const name = formOf(request).name ?? "";
    try {
      const { organization } = await admin.createOrganization({ name });
      await admin.createProject({ orgId: organization.orgId, origins: [] });
      return seeOther(reply, `/organizations/${organization.orgId}`);
    } catch (error) {
      if (!(error instanceof AdminRefusal) || error.code !== "invalid-argument") throw error;
      const page = await admin.listOrganizations({ limit: 100 });
      return sendPage(
        reply,
        signedInPage(
          { title: "Organizations", viewer, current: "/organizations" },
          organizationsBody({
            ...page,
            value: name,
            error: "Give the organization a name of 1 to 200 characters.",
          }),
        ),
        400,
      );
    }
  });
}
