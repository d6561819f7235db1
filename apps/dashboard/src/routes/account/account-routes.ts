import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  requireRole,
  seeOther,
  takeOnce,
} from "../../http/dashboard-context.js";
import { sendAccountPage } from "./send-account-page.js";

/** The Account page of every viewer, and the password change on it (which ends every session). */
export function registerAccountRoutes(app: DashboardFastify, context: DashboardContext): void {
  app.get("/account", async (request, reply) => {
    const viewer = request.viewer;
    if (!viewer) return seeOther(reply, "/sign-in");
    const once = takeOnce(context, request, reply, viewer) as
      | { kind: string; codes?: string[]; ended?: number }
      | undefined;
    const required =
      viewer.orgRequiresTwoFactor && !viewer.twoFactor
        ? "Your organization requires two-factor authentication. Set it up to continue."
        : undefined;
    const ended =
      once?.kind === "sessions-ended"
        ? once.ended === 1
          ? "1 session ended."
          : `${once.ended ?? 0} sessions ended.`
        : undefined;
    const twoFactor = {
      ...(once?.kind === "recovery-codes" && once.codes ? { recoveryCodes: once.codes } : {}),
      ...(required ? { notice: required } : {}),
    };
    return sendAccountPage(context, reply, viewer, undefined, 200, twoFactor, ended);
  });

  app.post("/account/password", async (request, reply) => {
    const viewer = request.viewer ?? requireRole(request, reply, "member");
    if (!viewer) return reply;
    const form = formOf(request);
    const result = await context.auth.changePassword({
      viewer,
      current: form.current ?? "",
      next: form.next ?? "",
      confirm: form.confirm ?? "",
      ip: request.ip,
    });
    if (!result.ok)
      return result.field === null
        ? sendAccountPage(context, reply, viewer, { form: result.message }, 429)
        : sendAccountPage(context, reply, viewer, { [result.field]: result.message }, 400);
    reply.header("set-cookie", context.cookies.set(context.cookies.session, "", 0));
    return seeOther(reply, "/sign-in?notice=password-changed");
  });
}
