import type { Clock } from "@hub/clock";
import type { Counters } from "@hub/counters";
import type { Logger } from "pino";
import type { HubConfig } from "./config.js";
import { createDispatcher, type Dispatcher } from "./http/dispatcher.js";
import { createGatewayCredentialCheck } from "./http/gateway-credential-check.js";
import type { HubMetrics } from "./http/hub-metrics.js";
import type { OperationRouter } from "./http/operation.js";
import { createOrganizationRateLimiter } from "./limits/organization-rate-limiter.js";
import { createSourceRateLimiter } from "./limits/source-rate-limiter.js";

/** The HTTP rules every route shares, on this hub's credential and buckets. */
export function createHubDispatcher(deps: {
  config: HubConfig;
  clock: Clock;
  router: OperationRouter;
  metrics: HubMetrics;
  counters: Pick<Counters, "take">;
  logger: Logger;
}): Dispatcher {
  const { config, clock, router, metrics } = deps;
  return createDispatcher({
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
    logger: deps.logger,
  });
}
