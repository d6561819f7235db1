import type { Counters } from "@hub/counters";
import type { ReservationBook } from "@hub/admin";
import type { Store } from "@hub/store";
import type { Logger } from "pino";
import type { StackCleanup } from "./stack-cleanup.js";
import type { StackConfig } from "./stack-config.js";

/**
 * The API's base URL as members reach it, for the dashboard and dev.json: GATEWAY_PUBLIC_BASE_URL, else
 * the gateway's own listener.
 */
export function publicApiBaseUrl(config: StackConfig, gatewayUrl: string): string {
  return config.GATEWAY_PUBLIC_BASE_URL ?? `${gatewayUrl}/v1`;
}

/** The dashboard on DASHBOARD_HOST:DASHBOARD_PORT; answers its URL once it listens. */
export async function startDashboard(
  config: StackConfig,
  deps: {
    store: Store;
    reservations: ReservationBook;
    counters: Counters;
    /** The gateway's listener, shown when GATEWAY_PUBLIC_BASE_URL is unset. */
    gatewayUrl: string;
    logger: Logger;
  },
  cleanup: StackCleanup,
): Promise<string> {
  const { createDashboardApp } = await import("@hub/dashboard-app");
  const { store } = deps;
  const dashboard = createDashboardApp({
    config: {
      apiBaseUrl: publicApiBaseUrl(config, deps.gatewayUrl),
      ...(config.DASHBOARD_PUBLIC_ORIGIN ? { publicOrigin: config.DASHBOARD_PUBLIC_ORIGIN } : {}),
      trustedProxies: config.DASHBOARD_TRUSTED_PROXIES ?? config.GATEWAY_TRUSTED_PROXIES ?? [],
    },
    store: { access: store.access, dashboard: store.dashboard, usage: store.usage, audit: store.audit },
    reservations: deps.reservations,
    counters: deps.counters,
    logger: deps.logger.child({ part: "dashboard" }),
  });
  cleanup.push(() => dashboard.close());
  return dashboard.listen({ host: config.DASHBOARD_HOST, port: config.DASHBOARD_PORT });
}
