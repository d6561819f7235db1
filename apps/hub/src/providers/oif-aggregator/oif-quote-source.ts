import type { CandidateSource } from "../../quotes/quote-candidate.js";
import {
  askOifProviders,
  OIF_NONE_MESSAGE,
  type OifProvidersDeps,
  oifProvidersServe,
} from "./ask-oif-providers.js";
import { oifCandidate } from "./oif-candidate.js";

/** The OIF aggregators as a source of quote rounds on the signature lanes (a source the escrow takes directly). */
export function createOifQuoteSource(deps: OifProvidersDeps): CandidateSource {
  return {
    serves: (scope) => oifProvidersServe(deps, scope),
    async ask(route, scope, signal) {
      if (route.proxy) return undefined;
      const answers = await askOifProviders(deps, route, scope, signal);
      return {
        answers: answers.map(({ kind, quotes }) => ({
          kind,
          candidates: quotes.map((quote) => oifCandidate(quote, route)),
        })),
        noneMessage: OIF_NONE_MESSAGE,
      };
    },
  };
}
