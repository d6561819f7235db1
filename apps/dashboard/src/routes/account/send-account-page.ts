import type { FastifyReply } from "fastify";
import type { Viewer } from "../../auth/viewer.js";
import { type DashboardContext, sendPage } from "../../http/dashboard-context.js";
import { sendMemberPage } from "../../http/send-member-page.js";
import { accountBody, type TwoFactorState } from "../../pages/account-page.js";
import { signedInPage } from "../../pages/layout.js";

/** The Account page of any viewer: sessions, password and two-factor (a member's in their organization's frame). */
export async function sendAccountPage(
  context: DashboardContext,
  reply: FastifyReply,
  viewer: Viewer,
  errors?: Parameters<typeof accountBody>[0]["errors"],
  status = 200,
  twoFactor: TwoFactorState = {},
  notice?: string,
): Promise<FastifyReply> {
  const { auth } = context;
  const state: TwoFactorState = {
    setup: await auth.pendingTwoFactor(viewer),
    ...(viewer.twoFactor ? { unusedRecoveryCodes: await auth.unusedRecoveryCodes(viewer) } : {}),
    ...twoFactor,
  };
  const body = accountBody({
    viewer,
    sessions: await auth.sessionsOf(viewer),
    notice,
    ...(errors ? { errors } : {}),
    twoFactor: state,
  });
  if (viewer.role === "member")
    return sendMemberPage(context, reply, viewer, { title: "Account", current: "/account", body }, status);
  return sendPage(reply, signedInPage({ title: "Account", viewer, current: "/account" }, body), status);
}
