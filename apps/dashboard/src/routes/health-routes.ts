import type { DashboardFastify } from "../http/dashboard-context.js";

/** The probes: the dashboard answers while its process serves. */
export function registerHealthRoutes(app: DashboardFastify): void {
  for (const path of ["/livez", "/readyz", "/healthz"]) {
    app.get(path, async (_request, reply) => reply.type("application/json").send({ ok: true }));
  }
}
