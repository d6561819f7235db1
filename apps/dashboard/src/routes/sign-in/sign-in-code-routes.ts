import { readCookies } from "../../auth/session-cookie.js";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  seeOther,
  sendPage,
} from "../../http/dashboard-context.js";
import { codePage, signInPage } from "../../pages/sign-in-pages.js";

/** The second step of a sign-in with two-factor: the code for the password accepted a moment ago. */
export function registerSignInCodeRoutes(app: DashboardFastify, context: DashboardContext): void {
  const { auth, cookies, logger } = context;

  app.get("/sign-in/code", async (request, reply) => {
    if (request.viewer) return seeOther(reply, "/");
    if (!readCookies(request.headers.cookie).get(cookies.pending)) return seeOther(reply, "/sign-in");
    return sendPage(reply, codePage({}));
  });

  app.post("/sign-in/code", async (request, reply) => {
    const result = await auth.verifyCode({
      pendingToken: readCookies(request.headers.cookie).get(cookies.pending) ?? "",
      code: formOf(request).code ?? "",
      ip: request.ip,
      userAgent: request.headers["user-agent"] ?? "",
    });
    if (result.ok) {
      reply.header("set-cookie", [
        cookies.set(cookies.pending, "", 0),
        cookies.set(cookies.session, result.sessionToken),
      ]);
      return seeOther(reply, "/");
    }
    logger.warn({ ip: request.ip, expired: result.expired }, "dashboard: two-factor code refused");
    if (result.expired) {
      reply.header("set-cookie", cookies.set(cookies.pending, "", 0));
      return sendPage(reply, signInPage({ error: result.message }), result.locked ? 429 : 401);
    }
    return sendPage(reply, codePage({ error: result.message }), 401);
  });
}
