import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { redactUrl } from "@hub/http-client";
import type { Logger } from "pino";
import { createConfiguredCounters, createConfiguredHub } from "./configured-hub.js";
import { createStackLogger, type LogFormat } from "./create-stack-logger.js";
import { type DevFile, devFileContents, writeDevFile } from "./dev-file.js";
import { createStackCleanup } from "./stack-cleanup.js";
import { listenerUrl, parseStackConfig, type StackConfig } from "./stack-config.js";
import { parseRoles, type StackRole, stackRoles, unsafeSettings } from "./stack-roles.js";
import { startDashboard } from "./start-dashboard.js";
import { startFoundations } from "./start-foundations.js";
import { startGateway } from "./start-gateway.js";

export type { DevFile } from "./dev-file.js";

/** A running stack: its URLs and one stop for everything it started. */
export interface RunningStack {
  dev: DevFile;
  devFile: string;
  /** The operator listener's /metrics URL (METRICS_HOST:METRICS_PORT); /livez and /readyz beside it. */
  metricsUrl: string;
  /** Milliseconds from the start of startStack to the end of each phase, in order. */
  phases: Record<string, number>;
  /** From now on /readyz answers 503 `stopping` on every listener, so balancers drain the stack. */
  markStopping(): void;
  stop(): Promise<void>;
}

/** How long a stop may take before the process ends regardless (DESIGN §4). */
export const STOP_TIMEOUT_MS = 10_000;

/** The member account of the development organization that dashboardSignInUrl signs in. */
const DEVELOPMENT_MEMBER_EMAIL = "developer@example.com";

/** Milliseconds from its creation to the end of each phase, in order. */
function createPhaseClock() {
  const startedAt = performance.now();
  const phases: Record<string, number> = {};
  return {
    phases,
    done(name: string) {
      phases[name] = Math.round(performance.now() - startedAt);
    },
  };
}

/**
 * Starts the whole stack in this process on the given configuration: the store, the devnet (unless
 * HUB_DEVNET=0), the hub on HUB_PORT, the gateway on GATEWAY_PORT with the in-process way to the hub,
 * the dashboard on DASHBOARD_PORT, and (with the devnet) the development organization with a one-time
 * sign-in link for its member; writes dev.json once everything answers.
 */
export async function startStack(config: StackConfig, logger: Logger): Promise<RunningStack> {
  const clock = createPhaseClock();
  const cleanup = createStackCleanup(logger);
  try {
    const dataDir = resolve(config.HUB_DATA_DIR);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const devFile = join(dataDir, "dev.json");
    const {
      store,
      devnet,
      admin,
      reservations,
      development,
      createInProcessHubTransport,
      startMetricsListener,
    } = await startFoundations(config, { dataDir, devFile, logger, cleanup, phaseDone: clock.done });

    const { counters, readinessChecks } = await createConfiguredCounters(config, logger, cleanup);
    const gatewaySecret = config.HUB_GATEWAY_SECRET ?? randomBytes(32).toString("base64url");
    const hub = await createConfiguredHub(config, {
      store,
      devnet,
      counters,
      readinessChecks,
      gatewaySecret,
      logger,
    });
    clock.done("catalog");
    cleanup.push(() => hub.close());
    await hub.app.listen({ host: config.HUB_HOST, port: config.HUB_PORT });
    const hubUrl = listenerUrl(config.HUB_HOST, (hub.app.server.address() as AddressInfo).port);
    clock.done("hub");

    const readiness = () => hub.readiness.report();
    const gateway = await startGateway(
      config,
      { store, counters, gatewaySecret, transport: createInProcessHubTransport(hub), readiness, logger },
      cleanup,
    );
    const metricsListener = await startMetricsListener({
      registries: [hub.metrics, gateway.metrics],
      readiness,
      host: config.METRICS_HOST,
      port: config.METRICS_PORT,
    });
    cleanup.push(() => metricsListener.stop());
    clock.done("gateway");

    const dashboardUrl = await startDashboard(
      config,
      { store, reservations, counters, gatewayUrl: gateway.url, logger },
      cleanup,
    );
    const signIn = development
      ? await admin.inviteMember({ orgId: development.orgId, email: DEVELOPMENT_MEMBER_EMAIL })
      : undefined;
    clock.done("dashboard");

    const dashboardSignInUrl = signIn ? `${dashboardUrl}/sign-in/${signIn.invite.token}` : null;
    const dev = devFileContents(
      config,
      { gatewayUrl: gateway.url, dashboardUrl, hubUrl, dashboardSignInUrl },
      devnet,
      development,
    );
    await writeDevFile(devFile, dev);
    clock.done("ready");
    return {
      dev,
      devFile,
      metricsUrl: metricsListener.url,
      phases: clock.phases,
      markStopping: () => hub.readiness.markStopping(),
      stop: cleanup.stop,
    };
  } catch (error) {
    await cleanup.stop();
    throw error;
  }
}

/** The banner's lines: where every part of the stack listens. */
function bannerLines(stack: RunningStack, readyMs: number): string[] {
  const { dev } = stack;
  const operator = stack.metricsUrl.replace(/\/metrics$/, "");
  return [
    `gateway (API)   ${dev.gatewayListenerUrl}`,
    ...(dev.baseUrl !== dev.gatewayListenerUrl ? [`public API      ${dev.baseUrl}`] : []),
    `hub             ${dev.hubUrl}`,
    ...(dev.devnetUrl ? [`devnet          ${dev.devnetUrl}`] : []),
    ...[...dev.chains, ...dev.solanaChains].map(
      (chain) => `chain           ${chain.chainDomain} ${redactUrl(chain.rpcUrl)}`,
    ),
    `dashboard       ${dev.dashboardUrl}`,
    ...(dev.dashboardSignInUrl
      ? [`dashboard link  ${dev.dashboardSignInUrl}  (one-time sign-in, 24 h)`]
      : []),
    `metrics         ${stack.metricsUrl}  (operator only)`,
    `readiness       ${operator}/readyz  (operator only; /livez beside it)`,
    `dev file        ${stack.devFile}`,
    `ready in ${readyMs} ms: ${dev.baseUrl}`,
  ];
}

/**
 * `hub start`: reads the environment, starts the stack, prints where it is, stops it on SIGINT or
 * SIGTERM. A second signal, or a stop that takes longer than 10 s, ends the process regardless.
 */
export async function runStart(
  argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { only: { type: "string" } }, strict: true });
  const roles = parseRoles(values.only);
  const config = parseStackConfig(env);
  const problems = unsafeSettings(config, roles);
  if (problems.length > 0)
    throw new Error(`hub start refuses these settings:\n${problems.map((line) => `  ${line}`).join("\n")}`);
  const { logger, format } = createStackLogger(config);
  if (roles.size < stackRoles.length) return runStackPart(config, roles, logger, format);
  const startedAt = performance.now();
  const stack = await startStack(config, logger);
  const readyMs = Math.round(performance.now() - startedAt);
  const lines = bannerLines(stack, readyMs);
  // One write (stdout and the logger both write synchronously), so no log line lands inside the
  // banner; with JSON logs the banner is one more JSON line.
  if (format === "pretty") process.stdout.write(`${lines.join("\n")}\n`);
  else
    logger.info(
      { banner: lines.slice(0, -1), baseUrl: stack.dev.baseUrl, metricsUrl: stack.metricsUrl, readyMs },
      lines.at(-1),
    );
  const cpu = process.cpuUsage();
  logger.info(
    {
      phases: stack.phases,
      sinceProcessStartMs: Math.round(performance.now()),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    },
    "start-up phases",
  );

  stopOnSignals(stack, logger);
}

/** `hub start --only ...`: some parts of the stack in this process; the banner says where they listen. */
async function runStackPart(
  config: StackConfig,
  roles: ReadonlySet<StackRole>,
  logger: Logger,
  format: LogFormat,
): Promise<void> {
  const { startStackPart } = await import("./start-stack-part.js");
  const part = await startStackPart(config, roles, logger);
  const last = `ready in ${part.readyMs} ms: ${[...roles].join(", ")}`;
  if (format === "pretty") process.stdout.write(`${[...part.lines, last].join("\n")}\n`);
  else logger.info({ banner: part.lines, roles: [...roles], readyMs: part.readyMs }, last);
  stopOnSignals(part, logger);
}

/** Stops on SIGINT or SIGTERM; a second signal, or a stop longer than STOP_TIMEOUT_MS, exits regardless. */
function stopOnSignals(stack: { markStopping(): void; stop(): Promise<void> }, logger: Logger): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting without waiting for the stop");
      process.exit(130);
    }
    stopping = true;
    logger.info({ signal }, `stopping (a second Ctrl-C, or ${STOP_TIMEOUT_MS / 1000} s, ends it regardless)`);
    setTimeout(() => {
      logger.error(`the stop took longer than ${STOP_TIMEOUT_MS / 1000} s: exiting`);
      process.exit(1);
    }, STOP_TIMEOUT_MS);
    stack.markStopping();
    stack.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "the stop failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => shutdown("SIGINT"));
  process.on("SIGTERM", () => shutdown("SIGTERM"));
}
