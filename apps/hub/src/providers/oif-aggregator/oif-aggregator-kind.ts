import { createSolanaBlockhashChecker } from "../../chains/solana/solana-blockhash-checker.js";
import { limitedQuote, outboundRefused } from "../limited-quote.js";
import type { ProviderKind } from "../provider-kind.js";
import { createProxyQuoteSource } from "../proxy-lanes/proxy-quote-source.js";
import { createSwapRouterReader } from "../proxy-lanes/swap-router-reader.js";
import { type OifAggregatorClient, createOifAggregatorClient } from "./oif-aggregator-client.js";
import { type OifProviderConfig, oifProviderConfigSchema } from "./oif-aggregator-config.js";
import { createOifQuoteSource } from "./oif-quote-source.js";
import { createProviderPace } from "./provider-pace.js";
import { solanaSourceVetting } from "./solana/solana-source-vetting.js";

/**
 * OIF upstreams (the specification's dialect or the reference aggregator's): quotes on the signature
 * lanes and, through the user proxy, on the proxy lanes; orders forwarded on POST /order/openfor and
 * read for GET /order/{id}/status.
 */
export const oifAggregatorKind = {
  kind: "oif-aggregator",
  configSchema: oifProviderConfigSchema,
  createClient(config, { observe, outbound }) {
    const client = createOifAggregatorClient(config, observe);
    return { ...client, quote: limitedQuote(config.id, client.quote, outbound, outboundRefused) };
  },
  quoteSources(clients, context) {
    const { metrics, logger, clock } = context;
    const deps = {
      providers: clients,
      metrics,
      logger,
      clock,
      sourceVetting: solanaSourceVetting(
        createSolanaBlockhashChecker({ chains: context.familyChains.solana ?? [], clock }),
      ),
      pace: createProviderPace(),
      maxDeadlineMs: context.maxDeadlineMs,
    };
    return [
      createOifQuoteSource(deps),
      createProxyQuoteSource({
        ...deps,
        reader: createSwapRouterReader({ chains: context.chains, timeoutMs: 2000, logger }),
        holdMs: context.proxyTemplateHoldMs,
      }),
    ];
  },
} satisfies ProviderKind<OifProviderConfig, OifAggregatorClient>;
