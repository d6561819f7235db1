import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Clock, systemClock } from "@hub/clock";
import type { Catalog, HubAnswer, HubCall } from "@hub/contract";
import type { Counters } from "@hub/counters";
import type { SqlClient } from "@hub/store";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import type { Logger } from "pino";
import type { Registry } from "prom-client";
import { type HubConfig, type HubConfigInput, parseHubConfig } from "./config.js";
import { createDispatcher } from "./http/dispatcher.js";
import {
  answerUnparsableRequest,
  mountOnFastify,
  readGetBody,
  sendAnswer,
} from "./http/fastify-transport.js";
import { createGatewayCredentialCheck } from "./http/gateway-credential-check.js";
import { createHubMetrics } from "./http/hub-metrics.js";
import { createOperationRouter } from "./http/operation.js";
import { createOrganizationRateLimiter } from "./limits/organization-rate-limiter.js";
import { createOutboundLimiter } from "./limits/outbound-limiter.js";
import { createQuoteAdmission } from "./limits/quote-admission.js";
import { createSourceRateLimiter } from "./limits/source-rate-limiter.js";
import {
  chainRpcCheck,
  databaseCheck,
  reconcilerLagCheck,
  solanaChainRpcCheck,
  solanaReconcilerLagCheck,
  upstreamCheck,
} from "./operations/hub-readiness-checks.js";
import { createOperationsMetrics, type OperationsMetrics } from "./operations/operations-metrics.js";
import { createReadiness, type Readiness, type ReadinessCheck } from "./operations/readiness.js";
import { createExternalQuoteSource } from "./quotes/external/external-quote-source.js";
import { createOifQuoteSource } from "./quotes/oif/oif-quote-source.js";
import { createProviderPace } from "./quotes/oif/provider-pace.js";
import { createSolanaBlockhashChecker, type SolanaChainRpc } from "./quotes/oif/solana-blockhash-checker.js";
import { createProxyQuoteSource } from "./quotes/proxy/proxy-quote-source.js";
import { createSwapRouterReader } from "./quotes/proxy/swap-router-reader.js";
import { createQuoteMetrics } from "./quotes/quote-metrics.js";
import { createReconciler, type ReconcilerChainConfig } from "./reconciler/create-reconciler.js";
import type { SolanaReconcilerChainConfig } from "./reconciler/index-solana-chain.js";
import { registerHubRoutes } from "./routes/hub-routes.js";
import { createCatalogService } from "./services/catalog-service.js";
import { createOnchainService } from "./services/onchain-service.js";
import { createOrderService } from "./services/order-service.js";
import { createOrderStatusService } from "./services/order-status-service.js";
import { createQuoteService } from "./services/quote-service.js";
import { createChainFactsStore } from "./store/chain-facts-store.js";
import { createOpenFlowStore } from "./store/open-flow-store.js";
import { createOperationsStore } from "./store/operations-store.js";
import { createQuoteStore } from "./store/quote-store.js";
import { createSubmissionStore } from "./store/submission-store.js";
import { createProviderClients } from "./upstream/provider-clients.js";
import type { ProviderConfigInput } from "./upstream/providers-config.js";

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

/** Builds the hub: services from config and dependencies, the routes in spec order, both transports. */
export function createHubApp(deps: HubAppDeps): HubApp {
  const config = parseHubConfig(deps.config);
  if (!REPLICA_ID_PATTERN.test(deps.replicaId)) {
    throw new Error(`invalid hub replica id ${JSON.stringify(deps.replicaId)}: 1 to 16 of a-z and 0-9`);
  }
  const clock = deps.clock ?? systemClock;
  const { logger } = deps;
  const openapiPath = deps.openapiPath ?? defaultOpenapiPath();
  let openapiYaml: Buffer;
  try {
    openapiYaml = readFileSync(openapiPath);
  } catch (error) {
    throw new Error(`the OpenAPI document ${openapiPath} cannot be read: ${(error as Error).message}`);
  }

  const metrics = createHubMetrics();
  // Filled once the parts it watches exist; the limiters and clients report to it from their first call.
  let operations: OperationsMetrics | undefined;
  const admission = createQuoteAdmission({
    limit: config.quotesInFlight,
    onShed: () => operations?.shed("quotes-in-flight"),
  });
  if (deps.providers?.length && !deps.sql) throw new Error("quote providers need the database (deps.sql)");
  const outbound = createOutboundLimiter({
    maxConcurrentPerProvider: config.outboundPerProvider,
    onShed: (providerId) => operations?.shed("outbound", providerId),
  });
  const providers = deps.providers?.length
    ? createProviderClients(deps.providers, {
        outbound,
        observe: (providerId, result) => operations?.upstreamCall(providerId, result),
      })
    : undefined;
  if (deps.reconciler && !deps.sql) throw new Error("the reconciler needs the database (deps.sql)");
  const reconciler =
    deps.reconciler && deps.sql
      ? createReconciler({
          sql: deps.sql,
          chains: deps.reconciler.chains,
          ...(deps.reconciler.solanaChains ? { solanaChains: deps.reconciler.solanaChains } : {}),
          clock,
          logger: logger.child({ component: "reconciler" }),
          // The lease row names the replica that leads, so an operator can tell from the database.
          instanceId: `rec_${deps.replicaId}_${randomBytes(6).toString("hex")}`,
          quotePruning: { retentionMs: config.quoteRetentionMs },
          ...(deps.reconciler.confirmations === undefined
            ? {}
            : { confirmations: deps.reconciler.confirmations }),
          ...(deps.reconciler.pollIntervalMs === undefined
            ? {}
            : { pollIntervalMs: deps.reconciler.pollIntervalMs }),
        })
      : undefined;
  reconciler?.start();
  const operationsStore = deps.sql && createOperationsStore(deps.sql);
  operations = createOperationsMetrics(metrics.registry, {
    clock,
    ...(operationsStore ? { store: operationsStore } : {}),
    ...(reconciler ? { reconciler } : {}),
    quotesInFlight: () => admission.inFlight,
    upstreamInFlight: (providerId) => outbound.inFlight(providerId),
    providerIds: providers?.all.map((client) => client.provider.id) ?? [],
  });
  const maxLagBlocks = deps.readiness?.maxLagBlocks ?? 64;
  const maxLagSlots = deps.readiness?.maxLagSlots ?? 150;
  const readiness = createReadiness({
    checks: [
      ...(operationsStore ? [databaseCheck(operationsStore)] : []),
      ...(deps.readiness?.extraChecks ?? []),
      ...(providers?.all.filter((client) => client.provider.enabled).map(upstreamCheck) ?? []),
      ...(deps.reconciler?.chains ?? []).flatMap((chain) => [
        chainRpcCheck(chain),
        ...(deps.sql ? [reconcilerLagCheck(chain, createChainFactsStore(deps.sql), maxLagBlocks)] : []),
      ]),
      ...(deps.reconciler?.solanaChains ?? []).flatMap((chain) => [
        solanaChainRpcCheck(chain),
        ...(deps.sql ? [solanaReconcilerLagCheck(chain, createChainFactsStore(deps.sql), maxLagSlots)] : []),
      ]),
    ],
  });
  const router = createOperationRouter();
  const quoteMetrics = createQuoteMetrics(metrics.registry);
  const quoteLogger = logger.child({ component: "quotes" });
  const oifProviders = providers && {
    providers: providers.enabled,
    metrics: quoteMetrics,
    logger: quoteLogger,
    clock,
    solanaBlockhashes: createSolanaBlockhashChecker({ chains: deps.solanaChains ?? [], clock }),
    pace: createProviderPace(),
  };
  const quoteSources = [
    ...(oifProviders
      ? [
          createOifQuoteSource(oifProviders),
          createProxyQuoteSource({
            ...oifProviders,
            reader: createSwapRouterReader({
              chains: deps.chains ?? deps.reconciler?.chains ?? [],
              timeoutMs: 2000,
              logger: quoteLogger,
            }),
            holdMs: config.proxyTemplateHoldMs,
          }),
        ]
      : []),
    ...(providers?.enabledExternal.length
      ? [
          createExternalQuoteSource({
            clients: providers.enabledExternal,
            metrics: quoteMetrics,
            logger: quoteLogger,
            clock,
            openFlowMinValidityMs: config.openFlowMinValidityMs,
          }),
        ]
      : []),
  ];
  registerHubRoutes(router, {
    catalog: createCatalogService({ catalog: deps.catalog }),
    openapiYaml,
    quotes: createQuoteService({
      admission,
      sources: quoteSources,
      quoteStore: deps.sql && createQuoteStore(deps.sql),
      metrics: quoteMetrics,
      logger: quoteLogger,
      clock,
      replicaId: deps.replicaId,
      quoteDeadlineMs: config.quoteDeadlineMs,
      quoteLifetimeMs: config.quoteLifetimeMs,
    }),
    orders: createOrderService({
      store: deps.sql && createSubmissionStore(deps.sql),
      upstreamOf: (providerId) => providers?.get(providerId),
      outbound,
      clock,
      logger: logger.child({ component: "submissions" }),
      registrations: deps.sql && createOpenFlowStore(deps.sql),
      providerState: (providerId) => {
        const provider = deps.providers?.find((configured) => configured.id === providerId);
        if (!provider) return "unconfigured";
        return provider.enabled === false ? "disabled" : "enabled";
      },
      unsignedOpenFlowRegistration: config.unsignedOpenFlowRegistration,
    }),
    orderStatus: createOrderStatusService({
      sql: deps.sql,
      upstreamOf: (providerId) => providers?.get(providerId),
      clock,
      logger: logger.child({ component: "order-status" }),
      statusCacheMs: config.statusCacheMs,
      statusProjectionCapacity: config.statusProjectionCapacity,
      statusProjectionIdleEvictMs: config.statusProjectionIdleEvictMs,
      statusRefreshTimeoutMs: config.statusRefreshTimeoutMs,
    }),
    onchain: createOnchainService({ chainFacts: deps.sql && createChainFactsStore(deps.sql) }),
  });

  const dispatcher = createDispatcher({
    router,
    bodyLimitBytes: config.bodyLimitBytes,
    checkCredential: createGatewayCredentialCheck(config.gatewayCredential),
    sourceLimiter: createSourceRateLimiter({ ...config.perIpBucket, clock }),
    organizationLimiter: createOrganizationRateLimiter({
      counters: deps.counters,
      ratePerSecond: config.organizationBucket.ratePerSecond,
      burst: config.organizationBucket.burst,
    }),
    metrics,
    logger,
  });

  const EMPTY = Buffer.alloc(0);
  const app = Fastify({
    logger: false,
    exposeHeadRoutes: false,
    requestIdHeader: false,
    routerOptions: { maxParamLength: 2048 },
    clientErrorHandler: answerUnparsableRequest,
    // A URL Fastify cannot route (bad percent-encoding, an over-long id) still gets the dispatcher's
    // envelope, with a GET's body read as on every other route.
    frameworkErrors: (_error, request, reply) => {
      readGetBody(request, config.bodyLimitBytes, config.bodyReadTimeoutMs)
        .catch(() => EMPTY)
        .then((body) =>
          dispatcher.dispatch({
            method: request.method,
            url: request.url,
            headers: request.headers,
            body: body ?? EMPTY,
            peerAddress: request.socket.remoteAddress ?? "unknown",
            cancellation: undefined,
          }),
        )
        .then((answer) => sendAnswer(reply as unknown as FastifyReply, answer));
    },
  });
  app.get("/livez", async () => ({ status: "live" }));
  // /healthz stays an alias of /readyz (DESIGN §4).
  for (const path of ["/readyz", "/healthz"]) {
    app.get(path, async (_request, reply) => {
      const report = await readiness.report();
      return reply.code(report.status === "ready" ? 200 : 503).send(report);
    });
  }
  mountOnFastify(app, {
    router,
    dispatcher,
    bodyLimitBytes: config.bodyLimitBytes,
    bodyReadTimeoutMs: config.bodyReadTimeoutMs,
  });

  return {
    app,
    readiness,
    metrics: metrics.registry,
    handle(call) {
      const { deadline } = call;
      const inbound = {
        method: call.method,
        url: call.url,
        headers: call.headers,
        body: call.body,
        peerAddress: "in-process",
        cancellation: deadline,
      };
      if (deadline === undefined) return dispatcher.dispatch(inbound);
      if (deadline.aborted) return Promise.reject(deadline.signal.reason);
      // No abort listener here (an EventTarget listener costs more than the whole catalog call): the
      // work itself watches the deadline, and an answer that arrives after it fired is not delivered.
      return dispatcher
        .dispatch(inbound)
        .then((answer) => (deadline.aborted ? Promise.reject(deadline.signal.reason) : answer));
    },
    async close() {
      await reconciler?.stop();
      await app.close();
      await providers?.close();
    },
  };
}
