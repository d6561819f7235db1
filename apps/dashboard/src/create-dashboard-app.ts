import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createAdmin, type ReservationBook } from "@hub/admin";
import { type Clock, systemClock } from "@hub/clock";
import type { Counters } from "@hub/counters";
import type { AccessStore, AuditStore, DashboardStore, UsageStore } from "@hub/store";
import Fastify, { LogController } from "fastify";
import type { Logger } from "pino";
import { createDashboardAuth, type Viewer } from "./auth/dashboard-auth.js";
import { createCookieJar, readCookies } from "./auth/session-cookie.js";
import { createSignInLockout } from "./auth/sign-in-lockout.js";
import { type DashboardContext, type DashboardFastify, sendPage } from "./http/dashboard-context.js";
import { securityHeaders } from "./http/security-headers.js";
import { publicPage } from "./pages/layout.js";
import { messageBody } from "./pages/message-page.js";
import { registerAccessRoutes } from "./routes/access-routes.js";
import { registerAuditLogRoutes } from "./routes/audit-log-routes.js";
import { registerDocsRoutes } from "./routes/docs-routes.js";
import { registerOperatorRoutes } from "./routes/operator-routes.js";
import { registerSignInRoutes } from "./routes/sign-in-routes.js";
import { registerUsageRoutes } from "./routes/usage-routes.js";

export interface DashboardConfig {
  /** The dashboard's own origin as browsers send it (`Origin`); unset: the origin it listens on. */
  publicOrigin?: string;
  /** The API's base URL shown to members (the gateway's `/v1`). */
  apiBaseUrl: string;
  /** A session unused this long ends (default 30 minutes). */
  sessionIdleSeconds?: number;
  /** A session ends this long after sign-in, used or not (default 12 hours). */
  sessionAbsoluteSeconds?: number;
  /** Failed sign-ins that lock the account and the IP, and the window they are counted in (5 in 15 minutes). */
  signInLockout?: { failures: number; windowSeconds: number };
}

export interface DashboardDeps {
  config: DashboardConfig;
  /** Without usage the Usage page fails; without audit no action is recorded and the Audit log page fails. */
  store: { access: AccessStore; dashboard: DashboardStore; usage?: UsageStore; audit?: AuditStore };
  /** The hub's reservations, for the operators' reconcile page; without it that page says so. */
  reservations?: ReservationBook;
  clock?: Clock;
  /** Shared counters (Redis across replicas) for the sign-in lockout. */
  counters: Counters;
  logger: Logger;
}

export interface DashboardApp {
  readonly app: DashboardFastify;
  /** Listens and resolves to the dashboard's URL (its public origin). */
  listen(options: { host: string; port: number }): Promise<string>;
  close(): Promise<void>;
}

const ASSETS = {
  "dashboard.css": {
    type: "text/css; charset=utf-8",
    body: readFileSync(new URL("../assets/dashboard.css", import.meta.url)),
  },
  "favicon.svg": {
    type: "image/svg+xml",
    body: readFileSync(new URL("../assets/favicon.svg", import.meta.url)),
  },
  "dashboard.js": {
    type: "text/javascript; charset=utf-8",
    body: readFileSync(new URL("../assets/dashboard.js", import.meta.url)),
  },
} as const;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The dashboard web application: server-rendered pages on the admin module, sessions in the store. */
export function createDashboardApp(deps: DashboardDeps): DashboardApp {
  const { config, logger } = deps;
  const clock = deps.clock ?? systemClock;
  let publicOrigin = config.publicOrigin ? new URL(config.publicOrigin).origin : undefined;
  const cookies = createCookieJar(publicOrigin?.startsWith("https:") ?? false);
  const lockoutRule = config.signInLockout ?? { failures: 5, windowSeconds: 900 };
  const auth = createDashboardAuth({
    store: deps.store.dashboard,
    lockout: createSignInLockout(
      { failures: lockoutRule.failures, windowMs: lockoutRule.windowSeconds * 1000 },
      deps.counters,
    ),
    clock,
    limits: {
      idleMs: (config.sessionIdleSeconds ?? 1800) * 1000,
      absoluteMs: (config.sessionAbsoluteSeconds ?? 43_200) * 1000,
    },
  });
  // One admin per viewer, so each action is recorded as that account's.
  const adminFor = (viewer: Viewer) =>
    createAdmin({
      store: deps.store.access,
      accounts: deps.store.dashboard,
      ...(deps.reservations ? { reservations: deps.reservations } : {}),
      ...(deps.store.usage ? { usage: deps.store.usage } : {}),
      ...(deps.store.audit ? { audit: deps.store.audit } : {}),
      actor: { source: "dashboard", accountId: viewer.accountId, email: viewer.email },
      clock,
    });
  const context: DashboardContext = {
    auth,
    adminFor,
    cookies,
    apiBaseUrl: config.apiBaseUrl,
    publicOrigin: () => {
      if (!publicOrigin) throw new Error("the dashboard's public origin is not known before it listens");
      return publicOrigin;
    },
    clock,
    logger,
  };

  // Request logging is off: an invite link's token is in its path.
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 16 * 1024,
  });
  app.decorateRequest("viewer", undefined);
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => {
      const fields: Record<string, string> = {};
      for (const [name, value] of new URLSearchParams(body as string))
        if (!(name in fields)) fields[name] = value;
      done(null, fields);
    },
  );

  app.addHook("onSend", async (request, reply, payload) => {
    for (const [name, value] of Object.entries(securityHeaders)) {
      // A route may set a policy of its own (the API reference); every other answer gets the strict one.
      if (!reply.hasHeader(name)) reply.header(name, value);
    }
    if (!request.url.startsWith("/assets/")) reply.header("cache-control", "no-store");
    return payload;
  });

  app.addHook("onRequest", async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    // Every state-changing request comes from the dashboard's own pages; any other Origin changes nothing.
    if (request.headers.origin !== context.publicOrigin()) {
      logger.warn(
        { method: request.method, origin: request.headers.origin ?? null },
        "dashboard: write from a foreign origin refused",
      );
      return sendPage(
        reply,
        publicPage(
          "Refused",
          messageBody(
            "Refused",
            "This request did not come from the dashboard's own pages, so nothing was changed.",
            { href: "/", label: "Open the dashboard" },
          ),
        ),
        403,
      );
    }
  });

  app.addHook("preHandler", async (request) => {
    if (request.url.startsWith("/assets/")) return;
    const token = readCookies(request.headers.cookie).get(cookies.session);
    request.viewer = token ? await auth.viewerOf(token) : undefined;
  });

  app.get<{ Params: { name: string } }>("/assets/:name", async (request, reply) => {
    const asset = ASSETS[request.params.name as keyof typeof ASSETS];
    if (!asset) return reply.code(404).type("text/plain").send("not found");
    return reply.type(asset.type).header("cache-control", "public, max-age=300").send(asset.body);
  });
  for (const path of ["/livez", "/readyz", "/healthz"]) {
    app.get(path, async (_request, reply) => reply.type("application/json").send({ ok: true }));
  }

  registerSignInRoutes(app, context);
  registerAccessRoutes(app, context);
  registerOperatorRoutes(app, context);
  registerUsageRoutes(app, context);
  registerAuditLogRoutes(app, context);
  registerDocsRoutes(app, context);

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

  return {
    app,
    async listen({ host, port }) {
      await app.listen({ host, port });
      const address = app.server.address() as AddressInfo;
      publicOrigin ??= `http://${host}:${address.port}`;
      return publicOrigin;
    },
    close: () => app.close(),
  };
}
