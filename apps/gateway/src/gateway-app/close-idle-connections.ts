import type { GatewayApp } from "./gateway-app.js";

/**
 * A close waits for the calls in flight; a keep-alive connection whose call ends after the close began
 * would then hold it until its client drops it (Fastify keeps connections 72 s), so each connection is
 * closed as soon as it is idle.
 */
export function closeIdleConnectionsOnClose(app: GatewayApp): void {
  let sweep: NodeJS.Timeout | undefined;
  app.addHook("preClose", (done) => {
    sweep = setInterval(() => app.server.closeIdleConnections(), 50).unref();
    done();
  });
  app.addHook("onClose", (_instance, done) => {
    clearInterval(sweep);
    done();
  });
}
