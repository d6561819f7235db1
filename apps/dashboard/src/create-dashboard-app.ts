import type { AddressInfo } from "node:net";
import Fastify, { LogController } from "fastify";
import { createDashboardContext } from "./create-dashboard-context.js";
import type { DashboardDeps } from "./dashboard-deps.js";
import { addAnswerHeaders } from "./http/answer-headers.js";
import type { DashboardFastify } from "./http/dashboard-context.js";
import { setErrorPages } from "./http/error-pages.js";
import { addFormBodyParser } from "./http/form-body-parser.js";
import { addRequestGuards } from "./http/request-guards.js";
import { registerDashboardRoutes } from "./routes/dashboard-routes.js";

export type { DashboardConfig, DashboardDeps } from "./dashboard-deps.js";

export interface DashboardApp {
  readonly app: DashboardFastify;
  /** Listens and resolves to the dashboard's URL (its public origin). */
  listen(options: { host: string; port: number }): Promise<string>;
  close(): Promise<void>;
}

/** The dashboard web application: server-rendered pages on the admin module, sessions in the store. */
export function createDashboardApp(deps: DashboardDeps): DashboardApp {
  const { config, logger } = deps;
  let publicOrigin = config.publicOrigin ? new URL(config.publicOrigin).origin : undefined;
  const httpsOrigin = publicOrigin?.startsWith("https:") ?? false;
  const context = createDashboardContext(deps, {
    https: httpsOrigin,
    publicOrigin: () => {
      if (!publicOrigin) throw new Error("the dashboard's public origin is not known before it listens");
      return publicOrigin;
    },
  });

  const app = createDashboardFastify(deps);
  app.decorateRequest("viewer", undefined);
  addFormBodyParser(app);
  addAnswerHeaders(app, httpsOrigin);
  addRequestGuards(app, context);
  registerDashboardRoutes(app, context);
  setErrorPages(app, logger);

  return {
    app,
    async listen({ host, port }) {
      await app.listen({ host, port });
      const address = app.server.address() as AddressInfo;
      publicOrigin ??= `http://${originHost(host)}:${address.port}`;
      return publicOrigin;
    },
    close: () => app.close(),
  };
}

function createDashboardFastify({ config, logger }: DashboardDeps): DashboardFastify {
  const timeouts = {
    requestMs: config.timeouts?.requestMs ?? 30_000,
    headersMs: config.timeouts?.headersMs ?? 10_000,
    keepAliveMs: config.timeouts?.keepAliveMs ?? 72_000,
  };
  // Request logging is off: an invite link's token is in its path.
  return Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 16 * 1024,
    // Like the gateway's: a slow client cannot hold a connection open for good.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    http: {
      headersTimeout: Math.min(timeouts.headersMs, timeouts.requestMs),
      // Node checks both timeouts every 30 s by default, which would let a stalled head live 40 s.
      connectionsCheckingInterval: Math.min(1000, Math.ceil(timeouts.headersMs / 2)),
    },
    // request.ip: the socket's peer, or behind a trusted proxy the right-most untrusted X-Forwarded-For entry.
    trustProxy:
      config.trustedProxies && config.trustedProxies.length > 0 ? [...config.trustedProxies] : false,
  });
}

/**
 * The host of the default public origin for a listener bound to `host`: IPv6 in brackets, and the
 * unspecified addresses (every interface) as their family's loopback address. Behind a proxy or on a
 * public address, DASHBOARD_PUBLIC_ORIGIN says what browsers send instead.
 */
function originHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (!host.includes(":")) return host;
  return /^[0:]+$/.test(host) ? "[::1]" : `[${host}]`;
}
