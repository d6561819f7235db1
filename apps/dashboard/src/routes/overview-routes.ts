import {
  type DashboardContext,
  type DashboardFastify,
  requireRole,
  seeOther,
  sendPage,
} from "../http/dashboard-context.js";
import { signedInPage } from "../pages/layout.js";
import { overviewBody } from "../pages/overview-page.js";

/** The member's Overview (an operator is sent to the organizations). */
export function registerOverviewRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get("/", async (request, reply) => {
    if (request.viewer?.role === "operator") return seeOther(reply, "/organizations");
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const { organization, project } = await context
      .adminFor(viewer)
      .showOrganization({ orgId: viewer.orgId });
    return sendPage(
      reply,
      signedInPage(
        { title: "Overview", viewer, orgName: organization.name, current: "/" },
        overviewBody({ organization, project, apiBaseUrl: context.apiBaseUrl }),
      ),
    );
  });
}
