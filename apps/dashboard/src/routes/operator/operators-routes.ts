import { AdminRefusal } from "@hub/admin";
import {
  type DashboardContext,
  type DashboardFastify,
  formOf,
  requireRole,
  seeOther,
  sendPage,
} from "../../http/dashboard-context.js";
import { signedInPage } from "../../pages/layout.js";
import { operatorsBody } from "../../pages/operator-pages.js";

/** The Operators page: every operator account, each disabled or enabled from it. */
export function registerOperatorsRoutes(app: DashboardFastify, context: DashboardContext): void {
  for (const action of ["disable", "enable"] as const) {
    app.post(`/operators/${action}`, async (request, reply) => {
      const viewer = requireRole(request, reply, "operator");
      if (!viewer) return reply;
      const admin = context.adminFor(viewer);
      try {
        await admin.setOperatorDisabled({
          accountId: formOf(request).accountId ?? "",
          disabled: action === "disable",
        });
        return seeOther(reply, "/operators");
      } catch (error) {
        if (!(error instanceof AdminRefusal)) throw error;
        const { operators } = await admin.listOperators();
        return sendPage(
          reply,
          signedInPage(
            { title: "Operators", viewer, current: "/operators" },
            operatorsBody({ viewer, operators, error: `${error.message}.` }),
          ),
          409,
        );
      }
    });
  }

  app.get("/operators", async (request, reply) => {
    const viewer = requireRole(request, reply, "operator");
    if (!viewer) return reply;
    const { operators } = await context.adminFor(viewer).listOperators();
    return sendPage(
      reply,
      signedInPage(
        { title: "Operators", viewer, current: "/operators" },
        operatorsBody({ viewer, operators }),
      ),
    );
  });
}
