import type { ApiKeyInfo } from "@hub/admin";
import type { FastifyReply } from "fastify";
import type { DashboardContext, MemberViewer } from "../../http/dashboard-context.js";
import { sendMemberPage } from "../../http/send-member-page.js";
import { apiKeysPageBody, type NewKeyMessage } from "../../pages/api-keys-page.js";

export async function keysOf(context: DashboardContext, viewer: MemberViewer): Promise<ApiKeyInfo[]> {
  return (await context.adminFor(viewer).listKeys({ orgId: viewer.orgId })).apiKeys;
}

/** The key of the viewer's organization by this id; undefined for another's key, or none. */
export async function ownKey(
  context: DashboardContext,
  viewer: MemberViewer,
  keyId: string | undefined,
): Promise<ApiKeyInfo | undefined> {
  return keyId ? (await keysOf(context, viewer)).find((key) => key.keyId === keyId) : undefined;
}

/** The API keys page; a key id that is not the organization's answers it with 404. */
export async function sendKeysPage(
  context: DashboardContext,
  reply: FastifyReply,
  viewer: MemberViewer,
  created?: NewKeyMessage,
  status = 200,
): Promise<FastifyReply> {
  // Without the gateways' usage store the page shows the keys alone.
  const [keys, usage] = await Promise.all([
    keysOf(context, viewer),
    context.hasUsage ? context.adminFor(viewer).keyUsage({ orgId: viewer.orgId }) : undefined,
  ]);
  const body = apiKeysPageBody({ keys, created, usage });
  return sendMemberPage(context, reply, viewer, { title: "API keys", current: "/keys", body }, status);
}
