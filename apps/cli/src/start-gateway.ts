import type { AddressInfo } from "node:net";
import { systemClock } from "@hub/clock";
import type { HubTransport } from "@hub/contract";
import type { Counters } from "@hub/counters";
import type { GatewayAppDeps } from "@hub/gateway-app";
import type { Store } from "@hub/store";
import type { Logger } from "pino";
import { Registry } from "prom-client";
import type { StackCleanup } from "./stack-cleanup.js";
import { listenerUrl, type StackConfig } from "./stack-config.js";

/**
 * The gateway on GATEWAY_HOST:GATEWAY_PORT in front of the given way to the hub (in process, or over
 * HTTP when split), with its credential cache and usage tally; its metrics go to their own registry.
 */
export async function startGateway(
  config: StackConfig,
  deps: {
    store: Store;
    counters: Counters;
    gatewaySecret: string;
    transport: HubTransport;
    readiness: NonNullable<GatewayAppDeps["readiness"]>;
    logger: Logger;
  },
  cleanup: StackCleanup,
): Promise<{ url: string; metrics: Registry }> {
  const { createCredentialResolver, createGatewayApp, createUsageTally } = await import("@hub/gateway-app");
  const logger = deps.logger.child({ part: "gateway" });
  const credentials = createCredentialResolver({}, { store: deps.store.access, logger });
  cleanup.push(() => credentials.close());
  const usage = createUsageTally({}, { store: deps.store.usage, logger, clock: systemClock });
  cleanup.push(() => usage.close());
  const metrics = new Registry();
  const gateway = createGatewayApp({
    config: {
      hubCredential: deps.gatewaySecret,
      bodyLimitBytes: config.GATEWAY_BODY_LIMIT_BYTES,
      quoteTimeoutMs: config.GATEWAY_QUOTE_TIMEOUT_MS,
      timeoutMs: config.GATEWAY_TIMEOUT_MS,
      hubOrganizationBucket: { ratePerSecond: config.HUB_TENANT_RPS, burst: config.HUB_TENANT_BURST },
      projectShare: config.GATEWAY_PROJECT_SHARE,
      projectQuoteCost: config.GATEWAY_PROJECT_QUOTE_COST,
      visitorBucket: { ratePerSecond: config.GATEWAY_VISITOR_RPS, burst: config.GATEWAY_VISITOR_BURST },
      organizationPool: {
        ratePerSecond: config.GATEWAY_ORGANIZATION_RPS,
        burst: config.GATEWAY_ORGANIZATION_BURST,
      },
      trustedProxies: config.GATEWAY_TRUSTED_PROXIES,
    },
    credentials,
    counters: deps.counters,
    transport: deps.transport,
    logger,
    metrics,
    usage,
    readiness: deps.readiness,
  });
  cleanup.push(() => gateway.close());
  await gateway.listen({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT });
  return { url: listenerUrl(config.GATEWAY_HOST, (gateway.server.address() as AddressInfo).port), metrics };
}
