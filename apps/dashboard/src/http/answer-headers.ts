import type { DashboardFastify } from "./dashboard-context.js";
import { securityHeaders } from "./security-headers.js";

/** Two years, the preload list's floor; no includeSubDomains: the operator's other hosts are not ours to pin. */
const STRICT_TRANSPORT_SECURITY = "max-age=63072000";

/** The headers on every answer: the security policy, no caching but for assets, and HSTS over HTTPS. */
export function addAnswerHeaders(app: DashboardFastify, httpsOrigin: boolean): void {
  app.addHook("onSend", async (request, reply, payload) => {
    for (const [name, value] of Object.entries(securityHeaders)) {
      // A route may set a policy of its own (the API reference); every other answer gets the strict one.
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    if (!request.url.startsWith("/assets/")) reply.header("cache-control", "no-store");
    // Browsers ignore it over plain HTTP; sent only when the configured public origin is HTTPS.
    if (httpsOrigin) reply.header("strict-transport-security", STRICT_TRANSPORT_SECURITY);
    return payload;
  });
}
