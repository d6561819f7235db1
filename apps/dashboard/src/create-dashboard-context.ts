import { createAdmin } from "@hub/admin";
import { systemClock } from "@hub/clock";
import { createAttemptLimiter, defaultAttemptRule } from "./auth/attempt-limiter.js";
import { createDashboardAuth } from "./auth/dashboard-auth.js";
import { createScryptHasher } from "./auth/password-hash.js";
import { createCookieJar } from "./auth/session-cookie.js";
import type { Viewer } from "./auth/viewer.js";
import type { DashboardDeps } from "./dashboard-deps.js";
import type { DashboardContext } from "./http/dashboard-context.js";

/** What every route works with: sign-in and sessions, the sign-in limits, the admin module per viewer. */
export function createDashboardContext(
  deps: DashboardDeps,
  origin: { https: boolean; publicOrigin(): string },
): DashboardContext {
  const { config } = deps;
  const clock = deps.clock ?? systemClock;
  const { windowSeconds, ...limits } = config.signInLimits ?? {};
  const attempts = createAttemptLimiter(
    {
      ...defaultAttemptRule,
      ...limits,
      ...(windowSeconds !== undefined ? { windowMs: windowSeconds * 1000 } : {}),
    },
    deps.counters,
  );
  const auth = createDashboardAuth({
    store: deps.store.dashboard,
    attempts,
    hasher: deps.passwordHasher ?? createScryptHasher(),
    clock,
    audit: deps.store.audit,
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
  return {
    auth,
    attempts,
    adminFor,
    hasUsage: deps.store.usage !== undefined,
    cookies: createCookieJar(origin.https),
    apiBaseUrl: config.apiBaseUrl,
    publicOrigin: origin.publicOrigin,
    clock,
    logger: deps.logger,
  };
}
