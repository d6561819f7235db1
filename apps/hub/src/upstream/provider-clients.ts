import {
  createExternalAggregatorClient,
  type ExternalAggregatorClient,
} from "./external-aggregator-client.js";
import { createOifAggregatorClient, type OifAggregatorClient } from "./oif-aggregator-client.js";
import { type ProviderConfig, type ProviderConfigInput, parseProvidersConfig } from "./providers-config.js";

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
  close(): Promise<void>;
}

export function createProviderClients(
  providers: readonly (ProviderConfig | ProviderConfigInput)[],
): ProviderClients {
  const configs = parseProvidersConfig(providers);
  const oif = new Map<string, OifAggregatorClient>();
  const external = new Map<string, ExternalAggregatorClient>();
  for (const config of configs) {
    if (config.kind === "oif-aggregator") oif.set(config.id, createOifAggregatorClient(config));
    else external.set(config.id, createExternalAggregatorClient(config));
  }
  return {
    enabled: [...oif.values()].filter((client) => client.provider.enabled),
    enabledExternal: [...external.values()].filter((client) => client.provider.enabled),
    get: (providerId) => oif.get(providerId),
    getExternal: (providerId) => external.get(providerId),
    async close() {
      await Promise.all([...oif.values(), ...external.values()].map((client) => client.close()));
    },
  };
}
