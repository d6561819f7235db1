import type { GatewayApp } from "./gateway-app.js";
import { sendRefusal } from "./send-refusal.js";

/** What Fastify cannot route or serve answers with the envelope: EPX0004, EPX0005, EPX0006 or EPX0053. */
export function registerRefusalHandlers(app: GatewayApp): void {
  app.setNotFoundHandler((_request, reply) => sendRefusal(reply, "EPX0004"));

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    if (request.is404) return sendRefusal(reply, "EPX0004");
    if (error.statusCode === 413) return sendRefusal(reply, "EPX0005");
    if (error.statusCode !== undefined && error.statusCode < 500) return sendRefusal(reply, "EPX0006");
    request.log.error({ request_id: request.id, err: error }, "gateway route failed");
    return sendRefusal(reply, "EPX0053");
  });
}
