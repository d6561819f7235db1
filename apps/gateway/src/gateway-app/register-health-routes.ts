import type { GatewayApp } from "./gateway-app.js";
import { JSON_CONTENT_TYPE } from "./json-content-type.js";

/** /livez, and /readyz with its alias /healthz (DESIGN §4): the status only. */
export function registerHealthRoutes(app: GatewayApp, readiness: () => Promise<{ status: string }>): void {
  app.get("/livez", async (_request, reply) => {
    reply
      .header("content-type", JSON_CONTENT_TYPE)
      .header("cache-control", "no-store")
      .header("x-content-type-options", "nosniff")
      .send('{"status":"live"}');
  });
  for (const path of ["/readyz", "/healthz"]) {
    app.get(path, async (_request, reply) => {
      const report = await readiness();
      reply
        .code(report.status === "ready" || report.status === "degraded" ? 200 : 503)
        .header("content-type", JSON_CONTENT_TYPE)
        .header("cache-control", "no-store")
        .header("x-content-type-options", "nosniff")
        .send(JSON.stringify({ status: report.status }));
    });
  }
}
