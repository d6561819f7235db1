import type { Clock } from "@hub/clock";
import type { Catalog } from "@hub/contract";
import type { SqlClient } from "@hub/store";
import type { Logger } from "pino";
import type { HubConfig } from "./config.js";
import type { UpstreamAccess } from "./create-upstream-access.js";
import type { CandidateSource } from "./quotes/quote-candidate.js";
import type { QuoteMetrics } from "./quotes/quote-metrics.js";
import { createCatalogService } from "./services/catalog-service.js";
import type { HubServices } from "./services/hub-services.js";
import { createOnchainService } from "./services/onchain-service.js";
import { createOrderService } from "./services/order-service.js";
import { createOrderStatusService } from "./services/order-status-service.js";
import { createQuoteService } from "./services/quote-service.js";
import { createChainFactsStore } from "./store/chain-facts-store.js";
import { createOpenFlowStore } from "./store/open-flow-store.js";
import { createQuoteStore } from "./store/quote-store.js";
import { createSubmissionStore } from "./store/submission-store.js";

export interface HubServicesDeps {
  config: HubConfig;
  catalog: Catalog;
  openapiYaml: Buffer;
  sql: SqlClient | undefined;
  upstream: UpstreamAccess;
  quoteSources: CandidateSource[];
  quoteMetrics: QuoteMetrics;
  quoteLogger: Logger;
  clock: Clock;
  logger: Logger;
  replicaId: string;
}

/** Every service the routes call, on its stores and the upstream clients. */
export function createHubServices(deps: HubServicesDeps): HubServices {
  const { config, sql, clock, logger } = deps;
  const { admission, outbound, providers } = deps.upstream;
  return {
    catalog: createCatalogService({ catalog: deps.catalog }),
    openapiYaml: deps.openapiYaml,
    quotes: createQuoteService({
      admission,
      sources: deps.quoteSources,
      quoteStore: sql && createQuoteStore(sql),
      metrics: deps.quoteMetrics,
      logger: deps.quoteLogger,
      clock,
      replicaId: deps.replicaId,
      quoteDeadlineMs: config.quoteDeadlineMs,
      quoteLifetimeMs: config.quoteLifetimeMs,
    }),
    orders: createOrderService({
      store: sql && createSubmissionStore(sql),
      upstreamOf: (providerId) => providers?.submitterOf(providerId),
      outbound,
      clock,
      logger: logger.child({ component: "submissions" }),
      registrations: sql && createOpenFlowStore(sql),
      providerState: (providerId) => providers?.stateOf(providerId) ?? "unconfigured",
      unsignedOpenFlowRegistration: config.unsignedOpenFlowRegistration,
    }),
    orderStatus: createOrderStatusService({
      sql,
      upstreamOf: (providerId) => providers?.readerOf(providerId),
      clock,
      logger: logger.child({ component: "order-status" }),
      statusCacheMs: config.statusCacheMs,
      statusProjectionCapacity: config.statusProjectionCapacity,
      statusProjectionIdleEvictMs: config.statusProjectionIdleEvictMs,
      statusRefreshTimeoutMs: config.statusRefreshTimeoutMs,
    }),
    onchain: createOnchainService({ chainFacts: sql && createChainFactsStore(sql) }),
  };
}
