import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  keepOnce,
  requireRole,
  seeOther,
} from "../../http/dashboard-context.js";
import { sendAccountPage } from "./send-account-page.js";

/** The Account page's actions on sessions (end one, end the others) and on two-factor (set up, on, off). */
export function registerAccountSecurityRoutes(app: DashboardFastify, context: DashboardContext): void {
  const { auth } = context;

  app.post("/account/sessions/end", async (request, reply) => {
    const viewer = request.viewer ?? requireRole(request, reply, "member");
    if (!viewer) return reply;
    const ended = await auth.endOtherSession(viewer, formOf(request).session ?? "");
    keepOnce(context, reply, viewer, { kind: "sessions-ended", ended: ended ? 1 : 0 });
    return seeOther(reply, "/account");
  });

  app.post("/account/sessions/end-others", async (request, reply) => {
    const viewer = request.viewer ?? requireRole(request, reply, "member");
    if (!viewer) return reply;
    keepOnce(context, reply, viewer, { kind: "sessions-ended", ended: await auth.endOtherSessions(viewer) });
    return seeOther(reply, "/account");
  });

  app.post("/account/two-factor/setup", async (request, reply) => {
    const viewer = request.viewer ?? requireRole(request, reply, "member");
    if (!viewer) return reply;
    if (!viewer.twoFactor) await auth.startTwoFactor(viewer);
    return seeOther(reply, "/account");
  });

  app.post("/account/two-factor/on", async (request, reply) => {
    const viewer = request.viewer ?? requireRole(request, reply, "member");
    if (!viewer) return reply;
    const result = await auth.enableTwoFactor(viewer, formOf(request).code ?? "");
    if (!result.ok) return sendAccountPage(context, reply, viewer, undefined, 400, { error: result.message });
    keepOnce(context, reply, viewer, { kind: "recovery-codes", codes: result.recoveryCodes });
    return seeOther(reply, "/account");
  });

  app.post("/account/two-factor/off", async (request, reply) => {
    const viewer = request.viewer ?? requireRole(request, reply, "member");
    if (!viewer) return reply;
    const result = await auth.disableTwoFactor(viewer, formOf(request).code ?? "");
    if (!result.ok) return sendAccountPage(context, reply, viewer, undefined, 400, { error: result.message });
    return seeOther(reply, "/account");
  });
}
