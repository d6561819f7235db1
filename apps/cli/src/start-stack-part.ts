import { randomBytes } from "node:crypto";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { Counters } from "@hub/counters";
import { redactUrl } from "@hub/http-client";
import type { ReadinessCheck } from "@hub/hub-app";
import { openStore, type Store } from "@hub/store";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { createConfiguredCounters, createConfiguredHub } from "./configured-hub.js";
import { createStackCleanup, type StackCleanup } from "./stack-cleanup.js";
import { listenerUrl, type StackConfig } from "./stack-config.js";
import type { StackRole } from "./stack-roles.js";
import { startDashboard } from "./start-dashboard.js";
import { startGateway } from "./start-gateway.js";

/** Connections a split gateway keeps to its hub (the in-process transport needs none). */
const HUB_CONNECTIONS = 64;

/** Some parts of the stack, started apart from the others (`hub start --only`). */
export interface RunningStackPart {
  /** Where each part started here listens, one line each, for the banner. */
  lines: string[];
  readyMs: number;
  markStopping(): void;
  stop(): Promise<void>;
}

/** The hub's readiness as a split gateway sees it: its /readyz over HTTP. */
function hubReadiness(hubUrl: string) {
  let stopping = false;
  return {
    markStopping: () => {
      stopping = true;
    },
    async report(): Promise<{ status: "ready" | "not-ready" | "stopping" }> {
      if (stopping) return { status: "stopping" };
      try {
        const answer = await fetch(`${hubUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
        await answer.body?.cancel();
        return { status: answer.ok ? "ready" : "not-ready" };
      } catch {
        return { status: "not-ready" };
      }
    },
  };
}

/** What the parts started so far share, and what they add for the banner, the metrics and the stop. */
interface StackPartContext {
  config: StackConfig;
  logger: Logger;
  cleanup: StackCleanup;
  store: Store;
  counters: Counters;
  readinessChecks: ReadinessCheck[];
  gatewaySecret: string;
  registries: Registry[];
  lines: string[];
  stopping: Array<() => void>;
  readiness: (() => Promise<{ status: string }>) | undefined;
}

/**
 * Starts the given parts in this process against PostgreSQL (DATABASE_URL) and the shared secret: the
 * hub on HUB_HOST:HUB_PORT, the gateway on GATEWAY_HOST:GATEWAY_PORT calling the hub at HUB_URL over
 * HTTP, the dashboard on DASHBOARD_HOST:DASHBOARD_PORT; the operator listener serves their metrics.
 */
export async function startStackPart(
  config: StackConfig,
  roles: ReadonlySet<StackRole>,
  logger: Logger,
): Promise<RunningStackPart> {
  const startedAt = performance.now();
  const cleanup = createStackCleanup(logger);
  const stopping: Array<() => void> = [];
  try {
    const store = await openStore({
      dataDir: config.HUB_DATA_DIR,
      ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
    });
    cleanup.push(() => store.close());
    const { counters, readinessChecks } = await createConfiguredCounters(config, logger, cleanup);
    const gatewaySecret = config.HUB_GATEWAY_SECRET ?? randomBytes(32).toString("base64url");
    const part: StackPartContext = {
      config,
      logger,
      cleanup,
      store,
      counters,
      readinessChecks,
      gatewaySecret,
      registries: [],
      lines: [],
      stopping,
      readiness: undefined,
    };
    if (roles.has("hub")) await startHubPart(part);
    if (roles.has("gateway")) await startGatewayPart(part);
    if (roles.has("dashboard")) await startDashboardPart(part);
    const { lines, registries, readiness } = part;
    const { startMetricsListener } = await import("./start-metrics-listener.js");
    const metricsListener = await startMetricsListener({
      registries,
      ...(readiness ? { readiness } : {}),
      host: config.METRICS_HOST,
      port: config.METRICS_PORT,
    });
    cleanup.push(() => metricsListener.stop());
    lines.push(`metrics         ${metricsListener.url}  (operator only)`);
    return {
      lines,
      readyMs: Math.round(performance.now() - startedAt),
      markStopping: () => {
        for (const mark of stopping) mark();
      },
      stop: cleanup.stop,
    };
  } catch (error) {
    await cleanup.stop();
    throw error;
  }
}

async function startHubPart(part: StackPartContext): Promise<void> {
  const { config, store, counters, readinessChecks, gatewaySecret, logger, cleanup, registries, lines } =
    part;
  const hub = await createConfiguredHub(config, {
    store,
    devnet: undefined,
    counters,
    readinessChecks,
    gatewaySecret,
    logger,
  });
  cleanup.push(() => hub.close());
  await hub.app.listen({ host: config.HUB_HOST, port: config.HUB_PORT });
  registries.push(hub.metrics);
  part.readiness = () => hub.readiness.report();
  part.stopping.push(() => hub.readiness.markStopping());
  lines.push(
    `hub             ${listenerUrl(config.HUB_HOST, (hub.app.server.address() as AddressInfo).port)}`,
  );
}

async function startGatewayPart(part: StackPartContext): Promise<void> {
  const { config, store, counters, gatewaySecret, logger, cleanup, registries, lines } = part;
  const { createHttpHubTransport } = await import("@hub/gateway-app");
  const hubUrl = (config.HUB_URL ?? listenerUrl(config.HUB_HOST, config.HUB_PORT)).replace(/\/+$/, "");
  const transport = createHttpHubTransport({ url: hubUrl, connections: HUB_CONNECTIONS });
  cleanup.push(() => transport.close());
  const ofHub = hubReadiness(hubUrl);
  part.stopping.push(ofHub.markStopping);
  const gateway = await startGateway(
    config,
    { store, counters, gatewaySecret, transport, readiness: ofHub.report, logger },
    cleanup,
  );
  registries.push(gateway.metrics);
  part.readiness ??= ofHub.report;
  lines.push(`gateway (API)   ${gateway.url}/v1  (hub ${redactUrl(hubUrl)})`);
  if (config.GATEWAY_PUBLIC_BASE_URL) lines.push(`public API      ${config.GATEWAY_PUBLIC_BASE_URL}`);
}

async function startDashboardPart(part: StackPartContext): Promise<void> {
  const { config, store, counters, logger, cleanup, lines } = part;
  const { createReservationBook } = await import("@hub/hub-app");
  const dashboardUrl = await startDashboard(
    config,
    {
      store,
      reservations: createReservationBook(store.sql),
      counters,
      gatewayUrl: listenerUrl(config.GATEWAY_HOST, config.GATEWAY_PORT),
      logger,
    },
    cleanup,
  );
  lines.push(`dashboard       ${dashboardUrl}`);
}
