import { readCookies } from "../auth/session-cookie.js";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  seeOther,
  sendPage,
} from "../http/dashboard-context.js";
import { publicPage } from "../pages/layout.js";
import { messageBody } from "../pages/message-page.js";
import { invitePage, signInPage } from "../pages/sign-in-pages.js";

/** Sign-in by password, the one-time invite link, sign-out. */
export function registerSignInRoutes(app: DashboardFastify, context: DashboardContext): void {
  const { auth, cookies, logger } = context;
  const startSession = (token: string) => cookies.set(cookies.session, token);

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
    const result = await auth.signIn({ email, password: form.password ?? "", ip: request.ip });
    if (!result.ok) {
      logger.warn({ reason: result.reason, ip: request.ip }, "dashboard: sign-in refused");
      return sendPage(
        reply,
        signInPage({ email, error: result.message }),
        result.reason === "locked" ? 429 : 401,
      );
    }
    reply.header("set-cookie", startSession(result.sessionToken));
    return seeOther(reply, "/");
  });

  app.get<{ Params: { token: string } }>("/sign-in/:token", async (request, reply) => {
    const state = await auth.inviteState(request.params.token);
    if (!state.usable)
      return sendPage(
        reply,
        publicPage(
          "Link not valid",
          messageBody("This link cannot be used", state.message, {
            href: "/sign-in",
            label: "Sign in with a password",
          }),
        ),
        410,
      );
    return sendPage(
      reply,
      invitePage({ token: request.params.token, email: state.email, hasPassword: state.hasPassword }),
    );
  });

  app.post<{ Params: { token: string } }>("/sign-in/:token", async (request, reply) => {
    const form = formOf(request);
    const result = await auth.redeemInvite({
      token: request.params.token,
      password: form.password ?? "",
      confirm: form.confirm ?? "",
    });
    if (result.ok) {
      reply.header("set-cookie", startSession(result.sessionToken));
      return seeOther(reply, "/");
    }
    if (result.field === null)
      return sendPage(
        reply,
        publicPage(
          "Link not valid",
          messageBody("This link cannot be used", result.message, {
            href: "/sign-in",
            label: "Sign in with a password",
          }),
        ),
        410,
      );
    const state = await auth.inviteState(request.params.token);
    return sendPage(
      reply,
      invitePage({
        token: request.params.token,
        email: state.usable ? state.email : "",
        hasPassword: state.usable && state.hasPassword,
        errors: { [result.field]: result.message },
      }),
      400,
    );
  });

  app.post("/sign-out", async (request, reply) => {
    const token = readCookies(request.headers.cookie).get(cookies.session);
    if (token) await auth.signOut(token);
    reply.header("set-cookie", cookies.set(cookies.session, "", 0));
    return seeOther(reply, "/sign-in?notice=signed-out");
  });
}
