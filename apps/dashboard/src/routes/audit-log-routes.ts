import { AdminRefusal } from "@hub/admin";
import {
  type DashboardContext,
  type DashboardFastify,
  requireRole,
  sendPage,
} from "../http/dashboard-context.js";
import { auditLogBody } from "../pages/audit-log-page.js";
import { signedInPage } from "../pages/layout.js";

/** The operators' audit log, 100 entries a page; `after` and `org` narrow it. */
export function registerAuditLogRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get("/audit-log", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const query = request.query as Record<string, string | undefined>;
    const orgId = query.org || undefined;
    try {
      const page = await context.adminFor(viewer).listAuditLog({
        limit: 100,
        ...(query.after ? { after: query.after } : {}),
        ...(orgId ? { orgId } : {}),
      });
      return sendPage(
        reply,
        signedInPage({ title: "Audit log", viewer, current: "/audit-log" }, auditLogBody({ ...page, orgId })),
      );
    } catch (error) {
      if (error instanceof AdminRefusal && error.code === "invalid-argument") return reply.callNotFound();
      throw error;
    }
  });
}
