import { type OifAggregatorClient, createOifAggregatorClient } from "./oif-aggregator-client.js";
import { type ProviderConfig, type ProviderConfigInput, parseProvidersConfig } from "./providers-config.js";

/** One client per configured provider; quote rounds ask the enabled ones, submissions find theirs by id. */
export interface ProviderClients {
  /** The enabled providers' clients, in configuration order. */
  readonly enabled: readonly OifAggregatorClient[];
  /** The client of a configured provider (enabled or not: a quote already issued can still be submitted). */
  get(providerId: string): OifAggregatorClient | undefined;
  close(): Promise<void>;
}

export function createProviderClients(
  providers: readonly (ProviderConfig | ProviderConfigInput)[],
): ProviderClients {
  const configs = parseProvidersConfig(providers);
  const clients = new Map(configs.map((config) => [config.id, createOifAggregatorClient(config)]));
  const enabled = [...clients.values()].filter((client) => client.provider.enabled);
  return {
    enabled,
    get: (providerId) => clients.get(providerId),
    async close() {
      await Promise.all([...clients.values()].map((client) => client.close()));
    },
  };
}
