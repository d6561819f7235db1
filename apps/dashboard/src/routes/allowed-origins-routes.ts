import { AdminRefusal } from "@hub/admin";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  requireRole,
  seeOther,
} from "../http/dashboard-context.js";
import { sendMemberPage } from "../http/send-member-page.js";
import { allowedOriginsBody } from "../pages/allowed-origins-page.js";

/** The Allowed origins page: the browser origins the organization's project accepts. */
export function registerAllowedOriginsRoutes(app: DashboardFastify, context: DashboardContext): void {
  const page = { title: "Allowed origins", current: "/origins" };

  app.get("/origins", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const { project } = await context.adminFor(viewer).showOrganization({ orgId: viewer.orgId });
    return sendMemberPage(context, reply, viewer, { ...page, body: allowedOriginsBody({ project }) });
  });

  app.post("/origins", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const value = formOf(request).origin ?? "";
    const { project } = await context.adminFor(viewer).showOrganization({ orgId: viewer.orgId });
    if (!project)
      return sendMemberPage(context, reply, viewer, { ...page, body: allowedOriginsBody({ project }) }, 409);
    try {
      await context.adminFor(viewer).addProjectOrigin({ projectId: project.projectId, origin: value });
    } catch (error) {
      if (!(error instanceof AdminRefusal) || error.code !== "invalid-origin") throw error;
      const message = `${error.message.replace(/^invalid origin "(.*)": /, "")}.`;
      const body = allowedOriginsBody({ project, value, error: `Not an exact origin: ${message}` });
      return sendMemberPage(context, reply, viewer, { ...page, body }, 400);
    }
    return seeOther(reply, "/origins");
  });

  app.post("/origins/remove", async (request, reply) => {
    const viewer = requireRole(request, reply, "member");
    if (!viewer) return reply;
    const { project } = await context.adminFor(viewer).showOrganization({ orgId: viewer.orgId });
    if (project)
      await context
        .adminFor(viewer)
        .removeProjectOrigin({ projectId: project.projectId, origin: formOf(request).origin ?? "" });
    return seeOther(reply, "/origins");
  });
}
