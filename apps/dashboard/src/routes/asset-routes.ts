import { readFileSync } from "node:fs";
import type { DashboardFastify } from "../http/dashboard-context.js";

const ASSETS = {
  "dashboard.css": {
    type: "text/css; charset=utf-8",
    body: readFileSync(new URL("../../assets/dashboard.css", import.meta.url)),
  },
  "favicon.svg": {
    type: "image/svg+xml",
    body: readFileSync(new URL("../../assets/favicon.svg", import.meta.url)),
  },
  "dashboard.js": {
    type: "text/javascript; charset=utf-8",
    body: readFileSync(new URL("../../assets/dashboard.js", import.meta.url)),
  },
} as const;

/** The stylesheet, the icon and the script, read once at start. */
export function registerAssetRoutes(app: DashboardFastify): void {
  app.get<{ Params: { name: string } }>("/assets/:name", async (request, reply) => {
    const asset = ASSETS[request.params.name as keyof typeof ASSETS];
    if (!asset) return reply.code(404).type("text/plain").send("not found");
    return reply.type(asset.type).header("cache-control", "public, max-age=300").send(asset.body);
  });
}
