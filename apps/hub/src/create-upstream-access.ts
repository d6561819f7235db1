import type { HubConfig } from "./config.js";
import { createOutboundLimiter, type OutboundLimiter } from "./limits/outbound-limiter.js";
import { createQuoteAdmission, type QuoteAdmission } from "./limits/quote-admission.js";
import type { OperationsMetrics } from "./operations/operations-metrics.js";
import { createProviderClients, type ProviderClients } from "./providers/provider-clients.js";
import type { ProviderConfigInput } from "./providers/providers-config.js";

/** What stands between a call and the upstream providers: the quote admission, the outbound cap, the clients. */
export interface UpstreamAccess {
  admission: QuoteAdmission;
  outbound: OutboundLimiter;
  /** Absent when no provider is configured. */
  providers: ProviderClients | undefined;
}

/**
 * `operations` is read at each shed and each upstream call: the metrics are made after the parts they
 * watch, and the limiters and clients report to them from their first call.
 */
export function createUpstreamAccess(
  config: HubConfig,
  providers: readonly ProviderConfigInput[] | undefined,
  operations: () => OperationsMetrics | undefined,
): UpstreamAccess {
  const admission = createQuoteAdmission({
    limit: config.quotesInFlight,
    onShed: () => operations()?.shed("quotes-in-flight"),
  });
  const outbound = createOutboundLimiter({
    maxConcurrentPerProvider: config.outboundPerProvider,
    onShed: (providerId) => operations()?.shed("outbound", providerId),
  });
  return {
    admission,
    outbound,
    providers: providers?.length
      ? createProviderClients(providers, {
          outbound,
          observe: (providerId, result) => operations()?.upstreamCall(providerId, result),
        })
      : undefined,
  };
}
