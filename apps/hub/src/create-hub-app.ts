import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Clock, systemClock } from "@hub/clock";
import type { Catalog, HubAnswer, HubCall } from "@hub/contract";
import type { Counters } from "@hub/counters";
import { createRetentionStore, type SqlClient } from "@hub/store";
import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import type { ChainReadinessContext } from "./chains/chain-family.js";
import { chainFamilies } from "./chains/chain-families.js";
import type { SolanaReconcilerChainConfig } from "./chains/solana/solana-reconciler-chain-config.js";
import type { SolanaChainRpc } from "./chains/solana/solana-blockhash-checker.js";
import { type HubConfig, type HubConfigInput, parseHubConfig } from "./config.js";
import { createHubDispatcher } from "./create-hub-dispatcher.js";
import { createHubOperations } from "./create-hub-operations.js";
import { createHubServices } from "./create-hub-services.js";
import { type ChainRpcOptions, createMeteredChainReader } from "./create-metered-chain-reader.js";
import { createUpstreamAccess } from "./create-upstream-access.js";
import { createHubFastifyApp } from "./http/create-hub-fastify-app.js";
import { createHubMetrics } from "./http/hub-metrics.js";
import { handleInProcess } from "./http/handle-in-process.js";
import { createOperationRouter } from "./http/operation.js";
import type { Readiness, ReadinessCheck } from "./metrics/readiness.js";
import type { OperationsMetrics } from "./operations/operations-metrics.js";
import { createQuoteMetrics } from "./quotes/quote-metrics.js";
import {
  createReconciler,
  type Reconciler,
  type ReconcilerChainConfig,
} from "./reconciler/create-reconciler.js";
import { createRetentionJob } from "./retention/create-retention-job.js";
import { registerHubRoutes } from "./routes/hub-routes.js";
import { createChainFactsStore } from "./store/chain-facts-store.js";
import type { ProviderConfigInput } from "./providers/providers-config.js";

export interface HubAppDeps {
  config: HubConfigInput | HubConfig;
  catalog: Catalog;
  /** The shared counters; their bucketIdleMs is the idle rule (600 s by default). */
  counters: Pick<Counters, "take">;
  logger: Logger;
  clock?: Clock;
  /** This replica's id, carried in the quote ids it issues. */
  replicaId: string;
  /** The OpenAPI document to serve; defaults to the contract package's committed openapi.yaml. */
  openapiPath?: string;
  /** The database (quotes, submissions); required when providers are configured. */
  sql?: SqlClient;
  /** The upstream providers quote rounds ask; none means every round is EIN0008. */
  providers?: readonly ProviderConfigInput[];
  /**
   * EVM chains the hub reads at quote time (the swap router's price on the oif-swap-token lane), by
   * chain id. The stack passes the reconciler's chains; absent: a lane that needs a read is not offered.
   */
  chains?: readonly QuoteChainRpc[];
  /**
   * Solana chains the hub reads at quote time (whether an oif-escrow-nonevm answer's blockhash is still
   * valid), by chain domain; absent: every Solana answer is discarded (reason `blockhash`).
   */
  solanaChains?: readonly SolanaChainRpc[];
  /** Chains the reconciler indexes in this process (needs deps.sql); absent: no reconciler here. */
  reconciler?: HubReconcilerOptions;
  /** What /readyz checks besides the hub's own (the database, each upstream, each chain and its lag). */
  readiness?: HubReadinessOptions;
}

export interface HubReadinessOptions {
  /** More checks from the process around the hub (Redis). */
  extraChecks?: readonly ReadinessCheck[];
  /** A chain whose watermark is more blocks than this behind its head is not ready (default 64). */
  maxLagBlocks?: number;
  /** A Solana chain whose watermark is more slots than this behind its slot is not ready (default 150). */
  maxLagSlots?: number;
  /**
   * A chain the reconciler (when it leads here) has not indexed successfully for longer than this is
   * named stale in the report and by hub_reconciler_chain_stale, whatever its block lag (default 120 s).
   */
  chainStaleAfterMs?: number;
}

/** Where the hub reads one EVM chain. */
export interface QuoteChainRpc {
  chainId: number;
  rpcUrl: string;
}

export interface HubReconcilerOptions {
  /** Each chain with its RPC URL, settlers and start block: reconcilerChainsFromManifest(manifest) on the devnet. */
  chains: readonly ReconcilerChainConfig[];
  /** Solana chains: solanaReconcilerChainsFromManifest(manifest) on the devnet. */
  solanaChains?: readonly SolanaReconcilerChainConfig[];
  confirmations?: number;
  pollIntervalMs?: number;
  /** How the EVM readers talk to each chain's RPC URLs (timeouts, requests in flight, eth_getLogs range). */
  rpc?: ChainRpcOptions;
}

export interface HubApp {
  /** The HTTP surface (listen on it, or inject into it): /v1 routes, /livez, /readyz and /healthz. */
  app: FastifyInstance;
  /** What /readyz answers: every check, and the names of those not ready. */
  readiness: Readiness;
  /** The hub's metrics, served by the operator listener, never on the hub's own listener. */
  metrics: Registry;
  /** The in-process way in for the gateway; a call whose deadline fired stops its work and rejects with its signal's reason. */
  handle(call: HubCall): Promise<HubAnswer>;
  close(): Promise<void>;
}

const REPLICA_ID_PATTERN = /^[a-z0-9]{1,16}$/;

function defaultOpenapiPath(): string {
  return fileURLToPath(new URL("../openapi.yaml", import.meta.resolve("@hub/contract")));
}

function readOpenapiYaml(openapiPath: string): Buffer {
  try {
    return readFileSync(openapiPath);
  } catch (error) {
    throw new Error(`the OpenAPI document ${openapiPath} cannot be read: ${(error as Error).message}`);
  }
}

/** Builds the hub: services from config and dependencies, the routes in spec order, both transports. */
export function createHubApp(deps: HubAppDeps): HubApp {
  const config = parseHubConfig(deps.config);
  if (!REPLICA_ID_PATTERN.test(deps.replicaId)) {
    throw new Error(`invalid hub replica id ${JSON.stringify(deps.replicaId)}: 1 to 16 of a-z and 0-9`);
  }
  const clock = deps.clock ?? systemClock;
  const { logger } = deps;
  const openapiYaml = readOpenapiYaml(deps.openapiPath ?? defaultOpenapiPath());

  const metrics = createHubMetrics();
  // Filled once the parts it watches exist; the limiters and clients report to it from their first call.
  let operations: OperationsMetrics | undefined;
  if (deps.providers?.length && !deps.sql) throw new Error("quote providers need the database (deps.sql)");
  const upstream = createUpstreamAccess(config, deps.providers, () => operations);
  if (deps.reconciler && !deps.sql) throw new Error("the reconciler needs the database (deps.sql)");
  const reconciler = startReconciler(deps, config, clock, metrics.registry);
  const hubOperations = createHubOperations({
    registry: metrics.registry,
    sql: deps.sql,
    clock,
    upstream,
    reconciler,
    chainStaleAfterMs: deps.readiness?.chainStaleAfterMs,
    extraChecks: deps.readiness?.extraChecks ?? [],
    chainChecks: chainReadinessChecks(deps, reconciler, clock),
  });
  operations = hubOperations.metrics;
  const { readiness } = hubOperations;
  const router = createOperationRouter();
  const quoteMetrics = createQuoteMetrics(metrics.registry);
  const quoteLogger = logger.child({ component: "quotes" });
  const quoteSources =
    upstream.providers?.quoteSources({
      metrics: quoteMetrics,
      logger: quoteLogger,
      clock,
      chains: deps.chains ?? deps.reconciler?.chains ?? [],
      familyChains: { solana: deps.solanaChains ?? [] },
      proxyTemplateHoldMs: config.proxyTemplateHoldMs,
      openFlowMinValidityMs: config.openFlowMinValidityMs,
      maxDeadlineMs: config.quoteMaxDeadlineMs,
    }) ?? [];
  registerHubRoutes(
    router,
    createHubServices({
      config,
      catalog: deps.catalog,
      openapiYaml,
      sql: deps.sql,
      upstream,
      quoteSources,
      quoteMetrics,
      quoteLogger,
      clock,
      logger,
      replicaId: deps.replicaId,
    }),
  );
  const dispatcher = createHubDispatcher({ config, clock, router, metrics, counters: deps.counters, logger });
  const app = createHubFastifyApp({
    router,
    dispatcher,
    readiness,
    bodyLimitBytes: config.bodyLimitBytes,
    bodyReadTimeoutMs: config.bodyReadTimeoutMs,
  });

  return {
    app,
    readiness,
    metrics: metrics.registry,
    handle: (call) => handleInProcess(dispatcher, call),
    async close() {
      await reconciler?.stop();
      await app.close();
      await upstream.providers?.close();
    },
  };
}

/** The reconciler, started, when this process indexes chains (the lease decides which replica leads). */
function startReconciler(
  deps: HubAppDeps,
  config: HubConfig,
  clock: Clock,
  registry: Registry,
): Reconciler | undefined {
  const { logger } = deps;
  const createChainReader = createMeteredChainReader(
    registry,
    deps.reconciler?.chains ?? [],
    deps.reconciler?.rpc ?? {},
  );
  const reconciler =
    deps.reconciler && deps.sql
      ? createReconciler({
          sql: deps.sql,
          chains: deps.reconciler.chains,
          createChainReader,
          ...(deps.reconciler.solanaChains
            ? {
                indexers: deps.reconciler.solanaChains.map((chain) =>
                  chainFamilies.solana.indexer(chain, {}),
                ),
              }
            : {}),
          clock,
          logger: logger.child({ component: "reconciler" }),
          // The lease row names the replica that leads, so an operator can tell from the database.
          instanceId: `rec_${deps.replicaId}_${randomBytes(6).toString("hex")}`,
          quotePruning: { retentionMs: config.quoteRetentionMs },
          onLeaderTick: createRetentionJob({
            store: createRetentionStore(deps.sql),
            periods: config.retention,
            clock,
            logger: logger.child({ component: "retention" }),
          }).runIfDue,
          ...(deps.reconciler.confirmations === undefined
            ? {}
            : { confirmations: deps.reconciler.confirmations }),
          ...(deps.reconciler.pollIntervalMs === undefined
            ? {}
            : { pollIntervalMs: deps.reconciler.pollIntervalMs }),
        })
      : undefined;
  reconciler?.start();
  return reconciler;
}

/** Each indexed chain's readiness checks, from its family: its watermark's lag, and staleness. */
function chainReadinessChecks(
  deps: HubAppDeps,
  reconciler: Reconciler | undefined,
  clock: Clock,
): ReadinessCheck[] {
  const staleness = reconciler && {
    source: reconciler,
    staleAfterMs: deps.readiness?.chainStaleAfterMs ?? 120_000,
    now: () => clock.now(),
  };
  const chainReadiness: ChainReadinessContext = {
    ...(deps.sql ? { watermarks: createChainFactsStore(deps.sql) } : {}),
    staleness,
    maxLag: { blocks: deps.readiness?.maxLagBlocks ?? 64, slots: deps.readiness?.maxLagSlots ?? 150 },
    stateOf: (chainDomain) => reconciler?.chainStates().find((state) => state.chainDomain === chainDomain),
  };
  return [
    ...(deps.reconciler?.chains ?? []).flatMap((chain) =>
      chainFamilies.evm.readinessChecks(chain, chainReadiness),
    ),
    ...(deps.reconciler?.solanaChains ?? []).flatMap((chain) =>
      chainFamilies.solana.readinessChecks(chain, chainReadiness),
    ),
  ];
}
