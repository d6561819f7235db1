import {
  type DashboardContext,
  type DashboardFastify,
  requireRole,
  sendPage,
} from "../http/dashboard-context.js";
import { signedInPage } from "../pages/layout.js";
import { usageBody } from "../pages/usage-page.js";

/** The member's Usage page: their own organization's last 24 hours; no organization id is read from the request. */
export function registerUsageRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get("/usage", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const admin = context.adminFor(viewer);
    const orgId = viewer.orgId as string;
    const [usage, { organization }] = await Promise.all([
      admin.usage({ orgId }),
      admin.showOrganization({ orgId }),
    ]);
    return sendPage(
      reply,
      signedInPage(
        { title: "Usage", viewer, orgName: organization.name, current: "/usage" },
        usageBody(usage),
      ),
    );
  });
}
