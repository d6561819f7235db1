import type { Devnet } from "@hub/devnet-app";
import { openStore, type Store } from "@hub/store";
import type { Logger } from "pino";
import { readPreviousKey } from "./dev-file.js";
import type { StackCleanup } from "./stack-cleanup.js";
import type { StackConfig } from "./stack-config.js";

/**
 * The stack's own modules, imported while the store opens and the devnet's chains start: through tsx
 * they take about a second to load, most of it on the loader's thread, so it overlaps instead of
 * coming first. The production benchmark's anchor imports the same (bench/production.ts).
 */
export function importStackModules() {
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
  let devnetIdleBlockMs: number;
  try {
    ({ createDevnet, devnetIdleBlockMs } = await import("@hub/devnet-app"));
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
    // Blocks keep coming while the chains are idle, so a block becomes final (devnetFinalityDepth).
    ...(config.DEVNET_RPC_FAULT_PORTS ? { rpcFaultPorts: config.DEVNET_RPC_FAULT_PORTS } : {}),
    idleBlockMs: devnetIdleBlockMs,
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
  const [{ createAdmin }, { createReservationBook, createChainFactsStore }, { startAdminChannel }] =
    await Promise.all([import("@hub/admin"), import("@hub/hub-app"), import("./admin-channel.js")]);
  const reservations = createReservationBook(store.sql);
  const admin = createAdmin({
    store: store.access,
    accounts: store.dashboard,
    reservations,
    chains: createChainFactsStore(store.sql),
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
    // The web example's page (npm run example:web) calls the gateway with the project id from its own origin.
    if (development)
      await admin.addProjectOrigin({ projectId: development.projectId, origin: config.HUB_DEV_WEB_ORIGIN });
    const webOrigin = new URL(config.HUB_DEV_WEB_ORIGIN).origin;
    return { admin, reservations, channel, development: development && { ...development, webOrigin } };
  } catch (error) {
    await channel.stop();
    throw error;
  }
}

/**
 * The store, the devnet (unless HUB_DEVNET=0), the stack's modules and the admin side, started together:
 * PGlite works in this process, the chains in anvil, and the admin side needs only the store and the
 * modules, so it starts while the devnet still does. Whatever started is in cleanup even when another
 * part failed.
 */
export async function startFoundations(
  config: StackConfig,
  context: {
    dataDir: string;
    devFile: string;
    logger: Logger;
    cleanup: StackCleanup;
    phaseDone(name: string): void;
  },
) {
  const { dataDir, devFile, logger, cleanup, phaseDone } = context;
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
  const [, , , { createInProcessHubTransport }, , , { startMetricsListener }] = loadedModules.value;
  return {
    store: openedStore.value,
    devnet: startedDevnet.value as Devnet | undefined,
    ...startedAdmin.value,
    createInProcessHubTransport,
    startMetricsListener,
  };
}
