import type { FastifyReply } from "fastify";
import type { Viewer } from "../auth/viewer.js";
import type { SafeHtml } from "../html.js";
import { signedInPage } from "../pages/layout.js";
import { type DashboardContext, sendPage } from "./dashboard-context.js";

/** A page of a member's own organization, its name in the frame. */
export async function sendMemberPage(
  context: DashboardContext,
  reply: FastifyReply,
  viewer: Viewer,
  page: { title: string; current: string; body: SafeHtml },
  status = 200,
): Promise<FastifyReply> {
  const { organization } = await context.adminFor(viewer).showOrganization({ orgId: viewer.orgId as string });
  return sendPage(
    reply,
    signedInPage({ title: page.title, viewer, orgName: organization.name, current: page.current }, page.body),
    status,
  );
}
