import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  seeOther,
  sendPage,
} from "../../http/dashboard-context.js";
import { publicPage } from "../../pages/layout.js";
import { messageBody } from "../../pages/message-page.js";
import { invitePage } from "../../pages/sign-in-pages.js";

/** The one-time invite link: it sets the password (when the account has none) and signs in. */
export function registerInviteLinkRoutes(app: DashboardFastify, context: DashboardContext): void {
  const { auth, cookies } = context;

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
      ip: request.ip,
      userAgent: request.headers["user-agent"] ?? "",
    });
    if (result.ok) {
      reply.header("set-cookie", cookies.set(cookies.session, result.sessionToken));
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
}
