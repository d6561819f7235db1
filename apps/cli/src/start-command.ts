import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { systemClock } from "@hub/clock";
import type { Counters } from "@hub/counters";
import type { Devnet } from "@hub/devnet-app";
import type { ReconcilerChainConfig } from "@hub/hub-app";
import { openStore } from "@hub/store";
import { Redis } from "ioredis";
import { type Logger, pino } from "pino";
import { Registry } from "prom-client";
import { parseStackConfig, type StackConfig } from "./stack-config.js";

/**
 * The stack's own modules, imported while the store opens and the devnet's chains start: through tsx
 * they take about a second to load, most of it on the loader's thread, so it overlaps instead of
 * coming first.
 */
function importStackModules() {
  return Promise.all([
    import("@hub/admin"),
    import("@hub/counters"),
    import("@hub/dashboard-app"),
    import("@hub/gateway-app"),
    import("@hub/hub-app"),
    import("./admin-channel.js"),
    import("./start-metrics-listener.js"),
  ]);
}

/** What `.data/dev.json` holds once the stack is ready (DESIGN §4). */
export interface DevFile {
  baseUrl: string;
  dashboardUrl: string;
  /** A one-time link signing in a member of the development organization; null without the devnet. */
  dashboardSignInUrl: string | null;
  hubUrl: string;
  devnetUrl: string | null;
  /** The development organization, its project and key; null without the devnet (HUB_DEVNET=0). */
  orgId: string | null;
  apiKey: string | null;
  projectId: string | null;
  allowedOrigin: string | null;
  chains: { chainDomain: string; chainId: number; rpcUrl: string }[];
  accounts: { address: string; privateKey: string }[];
}

/** A running stack: its URLs and one stop for everything it started. */
export interface RunningStack {
  dev: DevFile;
  devFile: string;
  /** The operator listener's /metrics URL (METRICS_PORT, 127.0.0.1). */
  metricsUrl: string;
  /** Milliseconds from the start of startStack to the end of each phase, in order. */
  phases: Record<string, number>;
  stop(): Promise<void>;
}

/** The member account of the development organization that dashboardSignInUrl signs in. */
const DEVELOPMENT_MEMBER_EMAIL = "developer@example.com";

async function readPreviousKey(devFile: string): Promise<string | undefined> {
  try {
    const previous = JSON.parse(await readFile(devFile, "utf8")) as Partial<DevFile>;
    return typeof previous.apiKey === "string" ? previous.apiKey : undefined;
  } catch {
    return undefined;
  }
}

async function writeFileAtomically(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode: 0o600 });
  await rename(temporary, path);
}

/**
 * Starts the whole stack in this process on the given configuration: the store, the devnet (unless
 * HUB_DEVNET=0), the hub on HUB_PORT, the gateway on GATEWAY_PORT with the in-process way to the hub,
 * the dashboard on DASHBOARD_PORT, and (with the devnet) the development organization with a one-time
 * sign-in link for its member; writes dev.json once everything answers.
 */
export async function startStack(config: StackConfig, logger: Logger): Promise<RunningStack> {
  const startedAt = performance.now();
  const phases: Record<string, number> = {};
  const phaseDone = (name: string) => {
    phases[name] = Math.round(performance.now() - startedAt);
  };
  const cleanup: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const step of cleanup.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        logger.error({ err: error }, "a part of the stack did not stop cleanly");
      }
    }
  };
  try {
    const dataDir = resolve(config.HUB_DATA_DIR);
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const devFile = join(dataDir, "dev.json");

    // Independent of each other: PGlite works in this process, the chains in anvil, and most of the
    // modules' loading is on tsx's thread.
    const [openedStore, startedDevnet, loadedModules] = await Promise.allSettled([
      openStore({
        dataDir,
        ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
      }).finally(() => phaseDone("store")),
      config.HUB_DEVNET
        ? import("@hub/devnet-app")
            .then(({ createDevnet }) =>
              createDevnet({
                port: config.DEVNET_PORT,
                rpcPorts: config.DEVNET_RPC_PORTS,
                dataDir,
                logger: logger.child({ part: "devnet" }),
              }),
            )
            .finally(() => phaseDone("devnet"))
        : undefined,
      importStackModules().finally(() => phaseDone("modules")),
    ]);
    if (openedStore.status === "fulfilled") cleanup.push(() => openedStore.value.close());
    if (startedDevnet.status === "fulfilled" && startedDevnet.value) {
      const running = startedDevnet.value;
      cleanup.push(() => running.stop());
    }
    if (openedStore.status === "rejected") throw openedStore.reason;
    if (startedDevnet.status === "rejected") throw startedDevnet.reason;
    if (loadedModules.status === "rejected") throw loadedModules.reason;
    const store = openedStore.value;
    const devnet: Devnet | undefined = startedDevnet.value;
    const [
      { createAdmin },
      { createMemoryCounters, createRedisCounters },
      { createDashboardApp },
      { createCredentialResolver, createGatewayApp, createInProcessHubTransport, createUsageTally },
      {
        createChainFactsStore,
        createHubApp,
        createReservationBook,
        devnetExternalProvider,
        devnetProvider,
        loadCatalog,
        parseProvidersConfig,
        reconcilerChainsFromManifest,
      },
      { startAdminChannel },
      { startMetricsListener },
    ] = loadedModules.value;

    const catalogFile = config.HUB_CATALOG_FILE ?? devnet?.files.catalogFile;
    if (!catalogFile) throw new Error("HUB_CATALOG_FILE is required when HUB_DEVNET=0");
    const catalog = await loadCatalog(catalogFile);
    const providers = config.HUB_PROVIDERS_FILE
      ? parseProvidersConfig(JSON.parse(await readFile(config.HUB_PROVIDERS_FILE, "utf8")))
      : devnet
        ? [devnetProvider(devnet.url), devnetExternalProvider(devnet.url)]
        : [];
    if (providers.length === 0) logger.warn("no upstream provider configured: every quote answers EIN0008");
    if (devnet) {
      // The devnet's chains start from genesis on every start; facts of an earlier run are void.
      for (const chain of devnet.manifest.chains)
        await createChainFactsStore(store.sql).forgetChainHistory(chain.chainDomain);
    }
    phaseDone("catalog");
    const reconcilerChains: ReconcilerChainConfig[] = devnet
      ? reconcilerChainsFromManifest(devnet.manifest)
      : catalog.families.evm.flatMap((chain) => {
          const rpcUrl = config.HUB_CHAIN_RPC_URLS?.[chain.chainDomain];
          if (!rpcUrl) {
            logger.warn(
              { chainDomain: chain.chainDomain },
              "no RPC URL for this catalog chain: it is not indexed",
            );
            return [];
          }
          // Without a deployment block the chain is indexed from its first block.
          return [
            {
              chainDomain: chain.chainDomain,
              chainId: chain.chainId,
              rpcUrl,
              inputSettlers: [chain.inputSettlers.escrow],
              outputSettler: chain.outputSettler,
              ...(chain.bridge ? { bridges: [chain.bridge] } : {}),
              startBlock: 0,
            },
          ];
        });

    let counters: Counters;
    if (config.REDIS_URL) {
      const redis = new Redis(config.REDIS_URL, { commandTimeout: 1000, maxRetriesPerRequest: 1 });
      cleanup.push(async () => void (await redis.quit()));
      counters = createRedisCounters(
        { prefix: "hub:", bucketIdleMs: config.HUB_BUCKET_IDLE_SECONDS * 1000 },
        { redis },
      );
    } else {
      counters = createMemoryCounters({ bucketIdleMs: config.HUB_BUCKET_IDLE_SECONDS * 1000 });
    }

    const gatewaySecret = config.HUB_GATEWAY_SECRET ?? randomBytes(32).toString("base64url");
    const hub = createHubApp({
      config: {
        gatewayCredential: gatewaySecret,
        organizationBucket: { ratePerSecond: config.HUB_TENANT_RPS, burst: config.HUB_TENANT_BURST },
        perIpBucket: { ratePerSecond: config.HUB_PER_IP_RPS, burst: config.HUB_PER_IP_BURST },
        quotesInFlight: config.HUB_QUOTES_IN_FLIGHT,
        outboundPerProvider: config.HUB_OUTBOUND_PER_PROVIDER,
        unsignedOpenFlowRegistration: config.HUB_UNSIGNED_OPEN_FLOW_REGISTRATION,
      },
      catalog,
      counters,
      sql: store.sql,
      providers,
      reconciler: { chains: reconcilerChains },
      logger: logger.child({ part: "hub" }),
      replicaId: config.HUB_REPLICA_ID,
    });
    cleanup.push(() => hub.close());
    const hubUrl = await hub.app.listen({ host: "127.0.0.1", port: config.HUB_PORT });
    phaseDone("hub");

    const reservations = createReservationBook(store.sql);
    const admin = createAdmin({
      store: store.access,
      accounts: store.dashboard,
      reservations,
      usage: store.usage,
      audit: store.audit,
    });
    // `hub admin` reaches the running stack through this channel, since a PGlite dir has one opener.
    const adminChannel = await startAdminChannel({
      admin,
      dataDir,
      logger: logger.child({ part: "admin" }),
    });
    cleanup.push(() => adminChannel.stop());
    const development = config.HUB_DEVNET
      ? await admin.ensureDevelopmentAccess({
          allowedOrigin: config.HUB_DEV_ORIGIN,
          ...(await readPreviousKey(devFile).then((key) => (key ? { previousKey: key } : {}))),
        })
      : undefined;
    phaseDone("admin");

    const credentials = createCredentialResolver(
      {},
      { store: store.access, logger: logger.child({ part: "gateway" }) },
    );
    cleanup.push(() => credentials.close());
    const usage = createUsageTally(
      {},
      { store: store.usage, logger: logger.child({ part: "gateway" }), clock: systemClock },
    );
    cleanup.push(() => usage.close());
    const gatewayMetrics = new Registry();
    const gateway = createGatewayApp({
      config: {
        hubCredential: gatewaySecret,
        bodyLimitBytes: config.GATEWAY_BODY_LIMIT_BYTES,
        quoteTimeoutMs: config.GATEWAY_QUOTE_TIMEOUT_MS,
        timeoutMs: config.GATEWAY_TIMEOUT_MS,
        hubOrganizationBucket: { ratePerSecond: config.HUB_TENANT_RPS, burst: config.HUB_TENANT_BURST },
        projectShare: config.GATEWAY_PROJECT_SHARE,
        trustedProxies: config.GATEWAY_TRUSTED_PROXIES,
      },
      credentials,
      counters,
      transport: createInProcessHubTransport(hub),
      logger: logger.child({ part: "gateway" }),
      metrics: gatewayMetrics,
      usage,
    });
    cleanup.push(() => gateway.close());
    const gatewayUrl = await gateway.listen({ host: "127.0.0.1", port: config.GATEWAY_PORT });
    const metricsListener = await startMetricsListener({
      registries: [hub.metrics, gatewayMetrics],
      port: config.METRICS_PORT,
    });
    cleanup.push(() => metricsListener.stop());
    phaseDone("gateway");

    const dashboard = createDashboardApp({
      config: {
        apiBaseUrl: `${gatewayUrl}/v1`,
        ...(config.DASHBOARD_PUBLIC_ORIGIN ? { publicOrigin: config.DASHBOARD_PUBLIC_ORIGIN } : {}),
      },
      store: { access: store.access, dashboard: store.dashboard, usage: store.usage, audit: store.audit },
      reservations,
      counters,
      logger: logger.child({ part: "dashboard" }),
    });
    cleanup.push(() => dashboard.close());
    const dashboardUrl = await dashboard.listen({ host: "127.0.0.1", port: config.DASHBOARD_PORT });
    const signIn = development
      ? await admin.inviteMember({ orgId: development.orgId, email: DEVELOPMENT_MEMBER_EMAIL })
      : undefined;
    phaseDone("dashboard");

    const dev: DevFile = {
      baseUrl: `${gatewayUrl}/v1`,
      dashboardUrl,
      dashboardSignInUrl: signIn ? `${dashboardUrl}/sign-in/${signIn.invite.token}` : null,
      hubUrl,
      devnetUrl: devnet?.url ?? null,
      orgId: development?.orgId ?? null,
      apiKey: development?.apiKey ?? null,
      projectId: development?.projectId ?? null,
      allowedOrigin: development?.allowedOrigin ?? null,
      chains: (devnet?.manifest.chains ?? []).map(({ chainDomain, chainId, rpcUrl }) => ({
        chainDomain,
        chainId,
        rpcUrl,
      })),
      accounts: (devnet?.manifest.users ?? []).map(({ address, privateKey }) => ({ address, privateKey })),
    };
    await writeFileAtomically(devFile, `${JSON.stringify(dev, null, 2)}\n`);
    phaseDone("ready");
    return { dev, devFile, metricsUrl: metricsListener.url, phases, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** `hub start`: reads the environment, starts the stack, prints where it is, stops it on SIGINT or SIGTERM. */
export async function runStart(
  _argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const config = parseStackConfig(env);
  const logger = pino({ level: config.LOG_LEVEL });
  const startedAt = performance.now();
  const stack = await startStack(config, logger);
  const { dev } = stack;
  console.log(`gateway (API)   ${dev.baseUrl}`);
  console.log(`hub             ${dev.hubUrl}`);
  if (dev.devnetUrl) console.log(`devnet          ${dev.devnetUrl}`);
  for (const chain of dev.chains) console.log(`chain           ${chain.chainDomain} ${chain.rpcUrl}`);
  console.log(`dashboard       ${dev.dashboardUrl}`);
  if (dev.dashboardSignInUrl)
    console.log(`dashboard link  ${dev.dashboardSignInUrl}  (one-time sign-in, 24 h)`);
  console.log(`metrics         ${stack.metricsUrl}  (operator only)`);
  console.log(`dev file        ${stack.devFile}`);
  console.log(`ready in ${Math.round(performance.now() - startedAt)} ms: ${dev.baseUrl}`);
  const cpu = process.cpuUsage();
  logger.info(
    {
      phases: stack.phases,
      sinceProcessStartMs: Math.round(performance.now()),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    },
    "start-up phases",
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "stopping");
    await stack.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
