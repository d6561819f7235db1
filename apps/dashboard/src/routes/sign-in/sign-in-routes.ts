import { readCookies } from "../../auth/session-cookie.js";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  seeOther,
  sendPage,
} from "../../http/dashboard-context.js";
import { signInPage } from "../../pages/sign-in-pages.js";
import { PENDING_SIGN_IN_SECONDS } from "../../auth/sign-in.js";

/** Sign-in by password (sent on to the code step when two-factor is on), and sign-out. */
export function registerSignInRoutes(app: DashboardFastify, context: DashboardContext): void {
  const { auth, cookies, logger } = context;

  app.get("/sign-in", async (request, reply) => {
    if (request.viewer) return seeOther(reply, "/");
    const notice = (request.query as Record<string, string>).notice;
    return sendPage(
      reply,
      signInPage(
        notice === "password-changed"
          ? {
              notice:
                "Your password is changed and every session of your account ended. Sign in with the new password.",
            }
          : notice === "signed-out"
            ? { notice: "You are signed out." }
            : {},
      ),
    );
  });

  app.post("/sign-in", async (request, reply) => {
    const form = formOf(request);
    const email = form.email ?? "";
    const result = await auth.signIn({
      email,
      password: form.password ?? "",
      ip: request.ip,
      userAgent: request.headers["user-agent"] ?? "",
    });
    if (result.ok === "code") {
      reply.header("set-cookie", cookies.set(cookies.pending, result.pendingToken, PENDING_SIGN_IN_SECONDS));
      return seeOther(reply, "/sign-in/code");
    }
    if (!result.ok) {
      logger.warn({ reason: result.reason, ip: request.ip }, "dashboard: sign-in refused");
      return sendPage(
        reply,
        signInPage({ email, error: result.message }),
        result.reason === "locked" ? 429 : 401,
      );
    }
    reply.header("set-cookie", cookies.set(cookies.session, result.sessionToken));
    return seeOther(reply, "/");
  });

  app.post("/sign-out", async (request, reply) => {
    const token = readCookies(request.headers.cookie).get(cookies.session);
    if (token) await auth.signOut(token);
    reply.header("set-cookie", cookies.set(cookies.session, "", 0));
    return seeOther(reply, "/sign-in?notice=signed-out");
  });
}
