import type { Logger } from "pino";
import { publicPage } from "../pages/layout.js";
import { messageBody } from "../pages/message-page.js";
import { type DashboardFastify, sendPage } from "./dashboard-context.js";
import { FormRefused } from "./form-body-parser.js";

/** The pages for an unknown address, a refused form and a failed request. */
export function setErrorPages(app: DashboardFastify, logger: Logger): void {
  app.setNotFoundHandler((_request, reply) =>
    sendPage(
      reply,
      publicPage(
        "Not found",
        messageBody("Page not found", "There is no page at this address.", {
          href: "/",
          label: "Open the dashboard",
        }),
      ),
      404,
    ),
  );
  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (error instanceof FormRefused)
      return sendPage(
        reply,
        publicPage(
          "Not accepted",
          messageBody("This form was not accepted", error.message, {
            href: "/",
            label: "Open the dashboard",
          }),
        ),
        400,
      );
    if (status >= 500) logger.error({ err: error, method: request.method }, "dashboard: request failed");
    return sendPage(
      reply,
      publicPage(
        "Something went wrong",
        messageBody(
          status >= 500 ? "Something went wrong" : "This request could not be read",
          status >= 500
            ? "The request failed; nothing you can fix here. Try again in a moment."
            : "Go back and try again.",
          { href: "/", label: "Open the dashboard" },
        ),
      ),
      status,
    );
  });
}
