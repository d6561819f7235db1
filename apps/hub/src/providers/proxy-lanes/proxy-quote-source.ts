import {
  askOifProviders,
  OIF_NONE_MESSAGE,
  type OifProvidersDeps,
  oifProvidersServe,
} from "../oif-aggregator/ask-oif-providers.js";
import type { CandidateSource } from "../../quotes/quote-candidate.js";
import { priceProxyRoute } from "./price-proxy-route.js";
import { proxyCandidate } from "./proxy-lane-candidate.js";
import type { SwapRouterReader } from "./swap-router-reader.js";

export interface ProxyQuoteSourceDeps extends OifProvidersDeps {
  /** Reads the chain's swap router (oif-swap-token). */
  reader: SwapRouterReader;
  /** How long a proxy-lane winner stays registrable after issue. */
  holdMs: number;
}

/**
 * The OIF aggregators as a source of quote rounds on the proxy lanes (the native coin, an undeclared
 * token): prices the route (the swap router is read on oif-swap-token), asks the OIF providers on the
 * upstream route, and prices each answer's escrow input.
 */
export function createProxyQuoteSource(deps: ProxyQuoteSourceDeps): CandidateSource {
  return {
    serves: (scope) => oifProvidersServe(deps, scope),
    async ask(route, scope, signal) {
      if (route.direction !== "evm" || !route.proxy) return undefined;
      const leg = await priceProxyRoute(route, deps.reader);
      const answers = await askOifProviders(deps, leg.upstreamRoute, scope, signal);
      return {
        answers: await Promise.all(
          answers.map(async ({ kind, quotes }) => ({
            kind,
            candidates: await Promise.all(
              quotes
                .flatMap((quote) => (quote.lane === "oif-escrow-nonevm" ? [] : [quote]))
                .map(async (quote) =>
                  proxyCandidate(
                    quote,
                    route,
                    leg,
                    leg.swap ? await leg.swap.costOf(quote.inputAmount) : undefined,
                    deps.holdMs,
                  ),
                ),
            ),
          })),
        ),
        noneMessage: OIF_NONE_MESSAGE,
      };
    },
  };
}
