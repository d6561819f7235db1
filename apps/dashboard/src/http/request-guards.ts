import { readCookies } from "../auth/session-cookie.js";
import { publicPage } from "../pages/layout.js";
import { messageBody } from "../pages/message-page.js";
import { type DashboardContext, type DashboardFastify, seeOther, sendPage } from "./dashboard-context.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * What every request passes before its route: a write only from the dashboard's own origin, then the
 * session's viewer, whom an organization that requires two-factor sends to set it up first.
 */
export function addRequestGuards(app: DashboardFastify, context: DashboardContext): void {
  app.addHook("onRequest", async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    // Every state-changing request comes from the dashboard's own pages; any other Origin changes nothing.
    if (request.headers.origin !== context.publicOrigin()) {
      context.logger.warn(
        { method: request.method, origin: request.headers.origin ?? null },
        "dashboard: write from a foreign origin refused",
      );
      return sendPage(
        reply,
        publicPage(
          "Refused",
          messageBody(
            "Refused",
            "This request did not come from the dashboard's own pages, so nothing was changed.",
            { href: "/", label: "Open the dashboard" },
          ),
        ),
        403,
      );
    }
  });

  app.addHook("preHandler", async (request, reply) => {
    if (request.url.startsWith("/assets/")) return;
    const token = readCookies(request.headers.cookie).get(context.cookies.session);
    request.viewer = token ? await context.auth.viewerOf(token) : undefined;
    const viewer = request.viewer;
    if (viewer?.orgRequiresTwoFactor && !viewer.twoFactor) {
      const path = request.url.replace(/\?.*$/s, "");
      if (path === "/account" || path.startsWith("/account/two-factor/") || path === "/sign-out") return;
      if (SAFE_METHODS.has(request.method)) return seeOther(reply, "/account");
      return sendPage(
        reply,
        publicPage(
          "Two-factor required",
          messageBody(
            "Two-factor authentication required",
            "Your organization requires two-factor authentication. Set it up on your Account page first.",
            { href: "/account", label: "Open your account" },
          ),
        ),
        403,
      );
    }
  });
}
