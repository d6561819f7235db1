import { limitedQuote, outboundRefused } from "../limited-quote.js";
import type { ProviderKind } from "../provider-kind.js";
import {
  type ExternalAggregatorClient,
  createExternalAggregatorClient,
} from "./external-aggregator-client.js";
import { type ExternalProviderConfig, externalProviderConfigSchema } from "./external-aggregator-config.js";
import { createExternalQuoteSource } from "./external-quote-source.js";

/**
 * External aggregators: quotes on the open flow, solver-swap and transfer lanes, whose winners the
 * user completes and registers through POST /order; no order is forwarded to them or read from them.
 */
export const externalAggregatorKind = {
  kind: "external-aggregator",
  configSchema: externalProviderConfigSchema,
  createClient(config, { observe, outbound }) {
    const client = createExternalAggregatorClient(config, observe);
    return { ...client, quote: limitedQuote(config.id, client.quote, outbound, outboundRefused) };
  },
  quoteSources(clients, context) {
    if (clients.length === 0) return [];
    return [
      createExternalQuoteSource({
        clients,
        metrics: context.metrics,
        logger: context.logger,
        clock: context.clock,
        openFlowMinValidityMs: context.openFlowMinValidityMs,
        maxDeadlineMs: context.maxDeadlineMs,
      }),
    ];
  },
} satisfies ProviderKind<ExternalProviderConfig, ExternalAggregatorClient>;
