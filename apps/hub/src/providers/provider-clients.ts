import type { CandidateSource } from "../quotes/quote-candidate.js";
import type { UpstreamCallResult } from "../upstream/upstream-http.js";
import type {
  OrderReader,
  OrderSubmitter,
  ProviderClient,
  ProviderClientDeps,
  QuoteSourceContext,
} from "./provider-kind.js";
import { type ProviderConfigInput, providerKindOf, providerKinds } from "./provider-registry.js";
import { type ProviderConfig, parseProvidersConfig } from "./providers-config.js";

type RegisteredKind = (typeof providerKinds)[number];
type ClientOf<Kind extends RegisteredKind> = ReturnType<Kind["createClient"]>;

/** Whether a provider is configured in this deployment, and enabled. */
export type ProviderState = "enabled" | "disabled" | "unconfigured";

/** One client per configured provider; what the hub asks of a provider, it asks here, by id. */
export interface ProviderClients {
  /** Every configured client, enabled or not, by kind in the registry's order, then in configuration order. */
  readonly all: readonly ProviderClient[];
  /** The enabled clients of one kind, in configuration order. */
  enabledOf<Kind extends RegisteredKind>(kind: Kind): readonly ClientOf<Kind>[];
  /** Every kind's quote-round sources over its enabled clients, in the registry's order. */
  quoteSources(context: QuoteSourceContext): CandidateSource[];
  /** Where an order of the provider's quote is forwarded (enabled or not: a quote already issued can still be submitted). */
  submitterOf(providerId: string): OrderSubmitter | undefined;
  /** Where an order the provider accepted is read (enabled or not). */
  readerOf(providerId: string): OrderReader | undefined;
  stateOf(providerId: string): ProviderState;
  close(): Promise<void>;
}

export function createProviderClients(
  providers: readonly (ProviderConfig | ProviderConfigInput)[],
  deps: {
    outbound?: ProviderClientDeps["outbound"];
    /** Told of every call's end, by provider id (the operations metrics). */
    observe?: (providerId: string, result: UpstreamCallResult) => void;
  } = {},
): ProviderClients {
  const configs = parseProvidersConfig(providers);
  const byKind = new Map<RegisteredKind, ProviderClient[]>(providerKinds.map((kind) => [kind, []]));
  const byId = new Map<string, ProviderClient>();
  for (const config of configs) {
    const observe = deps.observe && ((result: UpstreamCallResult) => deps.observe?.(config.id, result));
    const kind = providerKindOf(config);
    const client = (
      kind.createClient as (config: ProviderConfig, deps: ProviderClientDeps) => ProviderClient
    )(config, { observe, outbound: deps.outbound });
    byKind.get(kind)?.push(client);
    byId.set(config.id, client);
  }
  const all = providerKinds.flatMap((kind) => byKind.get(kind) ?? []);
  const enabledOf = <Kind extends RegisteredKind>(kind: Kind) =>
    (byKind.get(kind) ?? []).filter((client) => client.provider.enabled) as ClientOf<Kind>[];
  return {
    all,
    enabledOf,
    quoteSources: (context) =>
      providerKinds.flatMap((kind) =>
        (
          kind.quoteSources as (
            clients: readonly ProviderClient[],
            context: QuoteSourceContext,
          ) => CandidateSource[]
        )(enabledOf(kind), context),
      ),
    submitterOf(providerId) {
      const client = byId.get(providerId);
      return client?.submitOrder ? (client as OrderSubmitter) : undefined;
    },
    readerOf(providerId) {
      const client = byId.get(providerId);
      return client?.getOrder ? (client as OrderReader) : undefined;
    },
    stateOf(providerId) {
      const client = byId.get(providerId);
      if (!client) return "unconfigured";
      return client.provider.enabled ? "enabled" : "disabled";
    },
    async close() {
      await Promise.all(all.map((client) => client.close()));
    },
  };
}
