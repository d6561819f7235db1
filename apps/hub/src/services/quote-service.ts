import {
  canonicalSha256,
  newOpaqueId,
  type PreparedQuote,
  type PrepareQuoteRequest,
  type QuotePreview,
  type QuoteRequest,
  type QuoteWinner,
} from "@hub/contract";
import { createQuoteRound, noQuoteProvider } from "../quotes/quote-round.js";
import { quoteTerms } from "../quotes/quote-terms.js";
import type { QuoteRoute } from "../quotes/resolve-quote-route.js";
import type { Caller } from "./caller.js";
import { prepareQuote } from "./quote-service/prepare-quote.js";
import type { QuoteServiceDeps } from "./quote-service/quote-service-deps.js";
import { recordQuote } from "./quote-service/record-quote.js";

export type { QuoteServiceDeps } from "./quote-service/quote-service-deps.js";

/** A stored winner and its JSON text, serialized once for the quotes row and the answer. */
export interface IssuedQuote {
  winner: QuoteWinner;
  winnerJson: string;
}

/** Each call takes the request's route as the quote route resolved it before the charge. */
export interface QuoteService {
  /** POST /quote: one round, the winner disclosed and stored. */
  quote(
    request: QuoteRequest,
    route: QuoteRoute,
    caller: Caller,
    signal: AbortSignal | undefined,
  ): Promise<IssuedQuote>;
  /** POST /quote/preview: indicative offers of every provider, best first; nothing stored. */
  preview(
    request: QuoteRequest,
    route: QuoteRoute,
    caller: Caller,
    signal: AbortSignal | undefined,
  ): Promise<QuotePreview>;
  /** POST /quote/prepare: the chosen provider's winner under the client's preparationId. */
  prepare(
    request: PrepareQuoteRequest,
    route: QuoteRoute,
    caller: Caller,
    signal: AbortSignal | undefined,
  ): Promise<PreparedQuote>;
}

/** Quote rounds behind the three quote routes, inside the in-flight admission (EIN0081 past the cap). */
export function createQuoteService(deps: QuoteServiceDeps): QuoteService {
  const { admission, clock, replicaId, quoteStore } = deps;
  const round = createQuoteRound({
    sources: deps.sources,
    metrics: deps.metrics,
    logger: deps.logger,
    clock,
    deadlineMs: deps.quoteDeadlineMs,
  });

  return {
    quote(request, route, caller, signal) {
      return admission.run(async () => {
        const quotes = await round.run(route, {}, signal);
        if (!quoteStore) throw noQuoteProvider();
        const { row, disclosed } = recordQuote(deps, quotes[0]!, caller, canonicalSha256(request), null);
        const winnerJson = JSON.stringify(disclosed);
        // The only round in flight: no other quote can join its statement (issue 13).
        await quoteStore.insert({ ...row, winnerJson }, admission.inFlight === 1);
        return { winner: disclosed, winnerJson };
      });
    },

    preview(_request, route, _caller, signal) {
      return admission.run(async () => {
        const quotes = await round.run(route, {}, signal);
        return {
          quoteRequestId: newOpaqueId("qr", replicaId),
          offers: quotes.map((quote) => ({
            ...quoteTerms(quote, route),
            ...(quote.etaSeconds === undefined ? {} : { etaSeconds: quote.etaSeconds }),
          })),
        };
      });
    },

    prepare: (request, route, caller, signal) => prepareQuote(deps, round, request, route, caller, signal),
  };
}
