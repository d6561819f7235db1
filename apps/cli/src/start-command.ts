import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { systemClock } from "@hub/clock";
import type { Counters } from "@hub/counters";
import type { Devnet } from "@hub/devnet-app";
import type { ReadinessCheck, ReconcilerChainConfig, SolanaReconcilerChainConfig } from "@hub/hub-app";
import { openStore, type Store } from "@hub/store";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { Registry } from "prom-client";
import { createStackLogger } from "./create-stack-logger.js";
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
  /** Each devnet chain; undeclaredToken is a token the catalog leaves out (the oif-swap-token lane's source). */
  chains: { chainDomain: string; chainId: number; rpcUrl: string; undeclaredToken: string }[];
  accounts: { address: string; privateKey: string }[];
  /** The Solana stand-in chain; empty without the devnet. */
  solanaChains: { chainDomain: string; rpcUrl: string }[];
  /** Funded Solana users: base58 address and 64-byte key pair (a wallet's export). */
  solanaAccounts: { address: string; secretKey: string }[];
}

/** A running stack: its URLs and one stop for everything it started. */
export interface RunningStack {
  dev: DevFile;
  devFile: string;
  /** The operator listener's /metrics URL (METRICS_PORT, 127.0.0.1); /livez and /readyz beside it. */
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

async function readPreviousKey(devFile: string): Promise<string | undefined> {
  try {
    const previous = JSON.parse(await readFile(devFile, "utf8")) as Partial<DevFile>;
    return typeof previous.apiKey === "string" ? previous.apiKey : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The shared counters' Redis client. While Redis cannot be reached every command fails at once (no
 * offline queue), so the lockout and the buckets refuse calls without waiting (docs/decisions.md,
 * Redis down); the client reconnects by itself. An outage and the recovery are logged once each.
 */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const { Redis } = await import("ioredis");
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
  });
  let down = false;
  redis.on("error", (error: Error) => {
    if (down) return;
    down = true;
    logger.error({ err: error }, "Redis cannot be reached: every API call answers EPX0053 until it is back");
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    logger.warn("Redis is back: lockouts and buckets are shared again");
  });
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error("REDIS_URL cannot be reached", { cause: error });
  }
  return redis;
}

/**
 * The devnet, its anvils spawned first: they load their state while the rest of the devnet's modules
 * load through tsx, instead of after.
 */
async function startDevnet(config: StackConfig, dataDir: string, logger: Logger): Promise<Devnet> {
  const startingChains = import("@hub/devnet-app/chains").then(({ startDevnetChains }) =>
    startDevnetChains({ rpcPorts: config.DEVNET_RPC_PORTS }),
  );
  // Handled below, after the module's import: no unhandled rejection in between.
  startingChains.catch(() => undefined);
  let createDevnet: typeof import("@hub/devnet-app").createDevnet;
  try {
    ({ createDevnet } = await import("@hub/devnet-app"));
  } catch (error) {
    await startingChains.then(
      (chains) => chains.stop(),
      () => undefined,
    );
    throw error;
  }
  return createDevnet({
    port: config.DEVNET_PORT,
    chains: await startingChains,
    solanaRpcPort: config.DEVNET_SOLANA_RPC_PORT,
    dataDir,
    logger,
  });
}

/**
 * The admin side: the admin service, the channel `hub admin` reaches the running stack through (a
 * PGlite dir has one opener) and, with the devnet, the development organization and its key.
 */
async function startAdminSide(
  config: StackConfig,
  context: { store: Store; devFile: string; dataDir: string; logger: Logger },
) {
  const { store, devFile, dataDir, logger } = context;
  // Already loaded with the stack's other modules.
  const [{ createAdmin }, { createReservationBook }, { startAdminChannel }] = await Promise.all([
    import("@hub/admin"),
    import("@hub/hub-app"),
    import("./admin-channel.js"),
  ]);
  const reservations = createReservationBook(store.sql);
  const admin = createAdmin({
    store: store.access,
    accounts: store.dashboard,
    reservations,
    usage: store.usage,
    audit: store.audit,
  });
  const channel = await startAdminChannel({
    admin,
    dataDir,
    logger: logger.child({ part: "admin" }),
  });
  try {
    const development = config.HUB_DEVNET
      ? await admin.ensureDevelopmentAccess({
          allowedOrigin: config.HUB_DEV_ORIGIN,
          ...(await readPreviousKey(devFile).then((key) => (key ? { previousKey: key } : {}))),
        })
      : undefined;
    return { admin, reservations, channel, development };
  } catch (error) {
    await channel.stop();
    throw error;
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
    // modules' loading is on tsx's thread. The admin side needs only the store and the modules, so it
    // starts while the devnet still does.
    const opening = openStore({
      dataDir,
      ...(config.DATABASE_URL ? { databaseUrl: config.DATABASE_URL } : {}),
    }).finally(() => phaseDone("store"));
    const loading = importStackModules().finally(() => phaseDone("modules"));
    const [openedStore, startedDevnet, loadedModules, startedAdmin] = await Promise.allSettled([
      opening,
      config.HUB_DEVNET
        ? startDevnet(config, dataDir, logger.child({ part: "devnet" })).finally(() => phaseDone("devnet"))
        : undefined,
      loading,
      Promise.all([opening, loading])
        .then(([store]) => startAdminSide(config, { store, devFile, dataDir, logger }))
        .finally(() => phaseDone("admin")),
    ]);
    if (openedStore.status === "fulfilled") cleanup.push(() => openedStore.value.close());
    if (startedDevnet.status === "fulfilled" && startedDevnet.value) {
      const running = startedDevnet.value;
      cleanup.push(() => running.stop());
    }
    if (startedAdmin.status === "fulfilled") {
      const { channel } = startedAdmin.value;
      cleanup.push(() => channel.stop());
    }
    if (openedStore.status === "rejected") throw openedStore.reason;
    if (startedDevnet.status === "rejected") throw startedDevnet.reason;
    if (loadedModules.status === "rejected") throw loadedModules.reason;
    if (startedAdmin.status === "rejected") throw startedAdmin.reason;
    const store = openedStore.value;
    const devnet: Devnet | undefined = startedDevnet.value;
    const { admin, reservations, development } = startedAdmin.value;
    const [
      ,
      { createMemoryCounters, createRedisCounters },
      { createDashboardApp },
      { createCredentialResolver, createGatewayApp, createInProcessHubTransport, createUsageTally },
      {
        createChainFactsStore,
        createHubApp,
        devnetExternalProvider,
        devnetProviders,
        loadCatalog,
        parseProvidersConfig,
        reconcilerChainsFromManifest,
        solanaReconcilerChainFromCatalog,
        solanaReconcilerChainsFromManifest,
      },
      ,
      { startMetricsListener },
    ] = loadedModules.value;

    const catalogFile = config.HUB_CATALOG_FILE ?? devnet?.files.catalogFile;
    if (!catalogFile) throw new Error("HUB_CATALOG_FILE is required when HUB_DEVNET=0");
    const catalog = await loadCatalog(catalogFile);
    const providers = config.HUB_PROVIDERS_FILE
      ? parseProvidersConfig(JSON.parse(await readFile(config.HUB_PROVIDERS_FILE, "utf8")))
      : devnet
        ? [...devnetProviders(devnet.url, devnet.manifest), devnetExternalProvider(devnet.url)]
        : [];
    if (providers.length === 0) logger.warn("no upstream provider configured: every quote answers EIN0008");
    if (devnet) {
      // The devnet's chains start from genesis on every start; facts of an earlier run are void.
      for (const chain of devnet.manifest.chains)
        await createChainFactsStore(store.sql).forgetChainHistory(chain.chainDomain);
      // The Solana stand-in keeps its domain across starts, but not its history.
      if (devnet.manifest.solana)
        await createChainFactsStore(store.sql).forgetChainHistory(devnet.manifest.solana.chainDomain);
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
          // Without a deployment block the chain is indexed from its first block (slow on a public chain).
          if (chain.deployBlock === undefined)
            logger.warn(
              { chainDomain: chain.chainDomain },
              "the catalog gives no deployBlock for this chain: it is indexed from block 0",
            );
          return [
            {
              chainDomain: chain.chainDomain,
              chainId: chain.chainId,
              rpcUrl,
              inputSettlers: [chain.inputSettlers.escrow],
              outputSettler: chain.outputSettler,
              ...(chain.bridge ? { bridges: [chain.bridge] } : {}),
              startBlock: chain.deployBlock ?? 0,
            },
          ];
        });

    const solanaReconcilerChains: SolanaReconcilerChainConfig[] = devnet
      ? solanaReconcilerChainsFromManifest(devnet.manifest)
      : catalog.families.solana.flatMap((chain) => {
          const rpcUrl = config.HUB_CHAIN_RPC_URLS?.[chain.chainDomain];
          if (!rpcUrl) {
            logger.warn(
              { chainDomain: chain.chainDomain },
              "no RPC URL for this catalog chain: it is not indexed",
            );
            return [];
          }
          return [solanaReconcilerChainFromCatalog(chain, rpcUrl)];
        });

    let counters: Counters;
    const readinessChecks: ReadinessCheck[] = [];
    if (config.REDIS_URL) {
      const redis = await connectRedis(config.REDIS_URL, logger);
      cleanup.push(async () => void (await redis.quit()));
      readinessChecks.push({ name: "redis", run: async () => void (await redis.ping()) });
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
      reconciler: { chains: reconcilerChains, solanaChains: solanaReconcilerChains },
      // The quote side checks blockhashes on the same Solana nodes the reconciler reads.
      solanaChains: solanaReconcilerChains.map(({ chainDomain, rpcUrl }) => ({ chainDomain, rpcUrl })),
      readiness: {
        extraChecks: readinessChecks,
        maxLagBlocks: config.HUB_READY_MAX_LAG_BLOCKS,
        maxLagSlots: config.HUB_READY_MAX_LAG_SLOTS,
      },
      logger: logger.child({ part: "hub" }),
      replicaId: config.HUB_REPLICA_ID,
    });
    cleanup.push(() => hub.close());
    const hubUrl = await hub.app.listen({ host: "127.0.0.1", port: config.HUB_PORT });
    phaseDone("hub");

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
      readiness: () => hub.readiness.report(),
    });
    cleanup.push(() => gateway.close());
    const gatewayUrl = await gateway.listen({ host: "127.0.0.1", port: config.GATEWAY_PORT });
    const metricsListener = await startMetricsListener({
      registries: [hub.metrics, gatewayMetrics],
      readiness: () => hub.readiness.report(),
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
      chains: (devnet?.manifest.chains ?? []).map(({ chainDomain, chainId, rpcUrl, contracts }) => ({
        chainDomain,
        chainId,
        rpcUrl,
        undeclaredToken: contracts.undeclaredToken.toLowerCase(),
      })),
      accounts: (devnet?.manifest.users ?? []).map(({ address, privateKey }) => ({ address, privateKey })),
      solanaChains: devnet
        ? [{ chainDomain: devnet.solana.manifest.chainDomain, rpcUrl: devnet.solana.manifest.rpcUrl }]
        : [],
      solanaAccounts: (devnet?.solana.manifest.users ?? []).map(({ address, secretKey }) => ({
        address,
        secretKey,
      })),
    };
    await writeFileAtomically(devFile, `${JSON.stringify(dev, null, 2)}\n`);
    phaseDone("ready");
    return {
      dev,
      devFile,
      metricsUrl: metricsListener.url,
      phases,
      markStopping: () => hub.readiness.markStopping(),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The banner's lines: where every part of the stack listens. */
function bannerLines(stack: RunningStack, readyMs: number): string[] {
  const { dev } = stack;
  const operator = stack.metricsUrl.replace(/\/metrics$/, "");
  return [
    `gateway (API)   ${dev.baseUrl}`,
    `hub             ${dev.hubUrl}`,
    ...(dev.devnetUrl ? [`devnet          ${dev.devnetUrl}`] : []),
    ...[...dev.chains, ...dev.solanaChains].map(
      (chain) => `chain           ${chain.chainDomain} ${chain.rpcUrl}`,
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
  _argv: string[],
  env: Record<string, string | undefined> = process.env,
): Promise<void> {
  const config = parseStackConfig(env);
  const { logger, format } = createStackLogger(config);
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
