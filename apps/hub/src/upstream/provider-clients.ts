import type { OutboundLimiter } from "../limits/outbound-limiter.js";
import {
  createExternalAggregatorClient,
  type ExternalAggregatorClient,
} from "./external-aggregator-client.js";
import { createOifAggregatorClient, type OifAggregatorClient } from "./oif-aggregator-client.js";
import { type ProviderConfig, type ProviderConfigInput, parseProvidersConfig } from "./providers-config.js";
import type { UpstreamCallResult } from "./upstream-http.js";

/** One client per configured provider; quote rounds ask the enabled ones, submissions find theirs by id. */
export interface ProviderClients {
  /** The enabled OIF aggregators' clients, in configuration order. */
  readonly enabled: readonly OifAggregatorClient[];
  /** The enabled external aggregators' clients, in configuration order. */
  readonly enabledExternal: readonly ExternalAggregatorClient[];
  /** The client of a configured OIF aggregator (enabled or not: a quote already issued can still be submitted). */
  get(providerId: string): OifAggregatorClient | undefined;
  /** The client of a configured external aggregator (enabled or not). */
  getExternal(providerId: string): ExternalAggregatorClient | undefined;
  /** Every configured client, enabled or not, OIF first. */
  readonly all: readonly (OifAggregatorClient | ExternalAggregatorClient)[];
  close(): Promise<void>;
}

/** A quote call past the provider's outbound cap is not sent; the round reads it as a 429 (EIN0081). */
function limitedQuote<Request, Outcome>(
  providerId: string,
  quote: (request: Request, signal?: AbortSignal) => Promise<Outcome>,
  outbound: OutboundLimiter | undefined,
  refused: Outcome,
): (request: Request, signal?: AbortSignal) => Promise<Outcome> {
  if (!outbound) return quote;
  return (request, signal) => {
    const release = outbound.tryAcquire(providerId);
    if (!release) return Promise.resolve(refused);
    return quote(request, signal).finally(release);
  };
}

export function createProviderClients(
  providers: readonly (ProviderConfig | ProviderConfigInput)[],
  deps: {
    outbound?: OutboundLimiter;
    /** Told of every call's end, by provider id (the operations metrics). */
    observe?: (providerId: string, result: UpstreamCallResult) => void;
  } = {},
): ProviderClients {
  const configs = parseProvidersConfig(providers);
  const oif = new Map<string, OifAggregatorClient>();
  const external = new Map<string, ExternalAggregatorClient>();
  const refused = { kind: "rate-limited", retryAfterSeconds: undefined } as const;
  for (const config of configs) {
    const observe = deps.observe && ((result: UpstreamCallResult) => deps.observe?.(config.id, result));
    if (config.kind === "oif-aggregator") {
      const client = createOifAggregatorClient(config, observe);
      oif.set(config.id, {
        ...client,
        quote: limitedQuote(config.id, client.quote, deps.outbound, refused),
      });
    } else {
      const client = createExternalAggregatorClient(config, observe);
      external.set(config.id, {
        ...client,
        quote: limitedQuote(config.id, client.quote, deps.outbound, refused),
      });
    }
  }
  return {
    enabled: [...oif.values()].filter((client) => client.provider.enabled),
    enabledExternal: [...external.values()].filter((client) => client.provider.enabled),
    get: (providerId) => oif.get(providerId),
    getExternal: (providerId) => external.get(providerId),
    all: [...oif.values(), ...external.values()],
    async close() {
      await Promise.all([...oif.values(), ...external.values()].map((client) => client.close()));
    },
  };
}
