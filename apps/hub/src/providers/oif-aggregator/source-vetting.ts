import type { QuoteRoute } from "../../quotes/resolve-quote-route.js";
import type { OifProviderConfig } from "./oif-aggregator-config.js";
import type { VetOutcome, VettingContext } from "./vet-oif-quote.js";

/** A vetted answer the source chain did not hold, marked when the chain could not be asked. */
export type HeldOutcome = VetOutcome & { chainUnavailable?: true };

/**
 * How a round whose source is on another chain family vets an answer: by that family's module, held to
 * the provider's own declarations and, once vetted, to the source chain's word.
 */
export interface SourceVetting {
  vet(raw: unknown, context: VettingContext, provider: OifProviderConfig): Promise<HeldOutcome>;
}

/** The source vetting of a route, derived once per round; none (and no wait) for a route whose source is EVM. */
export type SourceVettingOf = (route: QuoteRoute) => Promise<SourceVetting> | undefined;
