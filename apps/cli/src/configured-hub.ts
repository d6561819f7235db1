import type { Counters } from "@hub/counters";
import type { Devnet } from "@hub/devnet-app";
import { redactUrl } from "@hub/http-client";
import type { ReadinessCheck } from "@hub/hub-app";
import type { Store } from "@hub/store";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { configuredProviders } from "./configured-providers.js";
import {
  checkRpcUrlDomains,
  configuredEvmChains,
  configuredSolanaChains,
} from "./configured-reconciler-chains.js";
import type { StackCleanup } from "./stack-cleanup.js";
import type { StackConfig } from "./stack-config.js";

const DAY_MS = 24 * 3_600_000;

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
    throw new Error(`REDIS_URL cannot be reached at ${redactUrl(url)}`, { cause: error });
  }
  return redis;
}

/** The counters of every part of this process: Redis when REDIS_URL is set, else in memory. */
export async function createConfiguredCounters(
  config: StackConfig,
  logger: Logger,
  cleanup: Pick<StackCleanup, "push">,
): Promise<{ counters: Counters; readinessChecks: ReadinessCheck[] }> {
  const { createMemoryCounters, createRedisCounters } = await import("@hub/counters");
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

  return { counters, readinessChecks };
}

/**
 * The hub with its catalog, providers and chains: the devnet's, or those configured (HUB_CATALOG_FILE,
 * HUB_PROVIDERS_FILE, HUB_CHAIN_RPC_URLS).
 */
export async function createConfiguredHub(
  config: StackConfig,
  context: {
    store: Store;
    devnet: Devnet | undefined;
    counters: Counters;
    readinessChecks: ReadinessCheck[];
    gatewaySecret: string;
    logger: Logger;
  },
) {
  const { store, devnet, counters, readinessChecks, gatewaySecret, logger } = context;
  const hubApp = await import("@hub/hub-app");
  const { createChainFactsStore, createHubApp, loadCatalog } = hubApp;
  const catalogFile = config.HUB_CATALOG_FILE ?? devnet?.files.catalogFile;
  if (!catalogFile) throw new Error("HUB_CATALOG_FILE is required when HUB_DEVNET=0");
  const catalog = await loadCatalog(catalogFile);
  const providers = await configuredProviders(config, devnet, hubApp, logger);
  if (devnet) {
    // The devnet's chains start from genesis on every start; facts of an earlier run are void.
    for (const chain of devnet.manifest.chains)
      await createChainFactsStore(store.sql).forgetChainHistory(chain.chainDomain);
    // The Solana stand-in keeps its domain across starts, but not its history.
    if (devnet.manifest.solana)
      await createChainFactsStore(store.sql).forgetChainHistory(devnet.manifest.solana.chainDomain);
  }
  const rpcUrls = config.HUB_CHAIN_RPC_URLS;
  checkRpcUrlDomains(rpcUrls, catalog, devnet);
  const reconcilerChains = configuredEvmChains(rpcUrls, catalog, devnet, hubApp, logger);
  const solanaReconcilerChains = configuredSolanaChains(rpcUrls, catalog, devnet, hubApp, logger);
  return createHubApp({
    config: hubAppConfig(config, gatewaySecret),
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
      chainStaleAfterMs: config.HUB_CHAIN_STALE_SECONDS * 1000,
    },
    logger: logger.child({ part: "hub" }),
    replicaId: config.HUB_REPLICA_ID,
  });
}

function hubAppConfig(config: StackConfig, gatewaySecret: string) {
  return {
    gatewayCredential: gatewaySecret,
    organizationBucket: { ratePerSecond: config.HUB_TENANT_RPS, burst: config.HUB_TENANT_BURST },
    perIpBucket: { ratePerSecond: config.HUB_PER_IP_RPS, burst: config.HUB_PER_IP_BURST },
    quotesInFlight: config.HUB_QUOTES_IN_FLIGHT,
    quoteLifetimeMs: config.HUB_QUOTE_LIFETIME_SECONDS * 1000,
    quoteMaxDeadlineMs: config.HUB_QUOTE_MAX_DEADLINE_SECONDS * 1000,
    outboundPerProvider: config.HUB_OUTBOUND_PER_PROVIDER,
    unsignedOpenFlowRegistration: config.HUB_UNSIGNED_OPEN_FLOW_REGISTRATION,
    retention: {
      expiredSessionsMs: config.RETENTION_SESSIONS_DAYS * DAY_MS,
      expiredInvitesMs: config.RETENTION_INVITES_DAYS * DAY_MS,
      usageMinutesMs: config.RETENTION_USAGE_DAYS * DAY_MS,
      auditMs: config.RETENTION_AUDIT_DAYS * DAY_MS,
    },
  };
}
