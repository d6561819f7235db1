import { HubError } from "@hub/contract";
import type { Logger } from "pino";
import type { Clock } from "../services/clock.js";
import type { OifAggregatorClient, QuoteOutcome } from "../upstream/oif-aggregator-client.js";
import { buildOifQuoteRequest } from "./build-oif-quote-request.js";
import { type QuoteLane, quoteLanes } from "./quote-lanes.js";
import { MIN_SIGNING_WINDOW_MS } from "./quote-candidate.js";
import type { QuoteMetrics } from "./quote-metrics.js";
import { compareQuotes } from "./rank-quotes.js";
import type { QuoteRoute } from "./resolve-quote-route.js";
import { type VettedQuote, vetQuote } from "./vet-quote.js";

export interface QuoteRoundDeps {
  /** The providers a round asks (the enabled ones). */
  providers: readonly OifAggregatorClient[];
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  /** The whole round's deadline (the spec's 15 s by default). */
  deadlineMs: number;
}

/** Limits a round to one provider, and within it to one solver (prepare). */
export interface QuoteRoundScope {
  providerId?: string;
  solverId?: string;
}

export interface QuoteRound {
  /**
   * Asks every provider in scope for every lane the route can take, in parallel, each call under its
   * provider's timeout and all under the round's deadline and the caller's signal; answers after that
   * are dropped. Resolves to the vetted quotes, best first; refuses when none is left.
   */
  run(route: QuoteRoute, scope: QuoteRoundScope, signal: AbortSignal | undefined): Promise<VettedQuote[]>;
}

type CallKind = QuoteOutcome["kind"];

export function createQuoteRound(deps: QuoteRoundDeps): QuoteRound {
  const { metrics, logger, clock } = deps;

  async function ask(
    client: OifAggregatorClient,
    route: QuoteRoute,
    lane: QuoteLane,
    scope: QuoteRoundScope,
    signal: AbortSignal,
  ): Promise<{ kind: CallKind; quotes: VettedQuote[] }> {
    const providerId = client.provider.id;
    const request = buildOifQuoteRequest(route, lane, {
      providerTimeoutMs: client.provider.timeoutMs,
      solverId: scope.solverId,
    });
    const outcome = await client.quote(request, signal);
    metrics.providerOutcome(providerId, outcome.kind);
    if (outcome.kind !== "quotes") {
      if (outcome.kind !== "no-quotes") {
        logger.warn({ provider: providerId, lane, outcome }, "provider gave no quotes to a round");
      }
      return { kind: outcome.kind, quotes: [] };
    }
    const quotes: VettedQuote[] = [];
    for (const raw of outcome.quotes) {
      const vetted = vetQuote(raw, { providerId, route, askedLane: lane, nowMs: clock.now() });
      if (vetted.ok) {
        // A provider asked for one solver answers for that one only.
        if (scope.solverId === undefined || vetted.quote.solverId === scope.solverId)
          quotes.push(vetted.quote);
        continue;
      }
      metrics.vettingRejected(providerId, vetted.reason);
      logger.warn(
        {
          provider: providerId,
          solverId: vetted.solverId,
          lane,
          reason: vetted.reason,
          detail: vetted.detail,
        },
        "upstream quote discarded by vetting",
      );
    }
    return { kind: "quotes", quotes };
  }

  return {
    async run(route, scope, signal) {
      const providers = deps.providers.filter(
        (client) => scope.providerId === undefined || client.provider.id === scope.providerId,
      );
      const calls: { client: OifAggregatorClient; lane: QuoteLane }[] = [];
      for (const client of providers) {
        for (const lane of route.lanes) {
          if (client.provider.products.includes(quoteLanes[lane].product)) calls.push({ client, lane });
        }
      }
      if (calls.length === 0) {
        throw new HubError("EIN0008", { message: "No viable route: no provider serves this route's lanes." });
      }
      const deadline = AbortSignal.timeout(deps.deadlineMs);
      const roundSignal = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const results = await Promise.all(
        calls.map(({ client, lane }) => ask(client, route, lane, scope, roundSignal)),
      );
      // A quote vetted early in a long round may have run out of time by its end.
      const endMs = clock.now();
      const quotes = results
        .flatMap((result) => result.quotes)
        .filter((quote) => {
          if (quote.validUntil * 1000 - endMs >= MIN_SIGNING_WINDOW_MS) return true;
          metrics.vettingRejected(quote.providerId, "expired");
          logger.warn(
            { provider: quote.providerId, solverId: quote.solverId, lane: quote.lane, reason: "expired" },
            "upstream quote discarded: too little validity left at the end of the round",
          );
          return false;
        });
      if (quotes.length > 0) return quotes.sort((a, b) => compareQuotes(a, b, route.swapType));
      signal?.throwIfAborted();

      const kinds = new Set(results.map((result) => result.kind));
      if (kinds.has("quotes") || kinds.has("no-quotes") || kinds.has("refused")) {
        throw new HubError("EIN0008", {
          message: "No viable route: no provider offered a quote that passed the hub's checks.",
        });
      }
      if (kinds.has("rate-limited")) throw new HubError("EIN0081");
      if (kinds.has("auth-refused")) throw new HubError("EIN0050", { params: ["upstreamAuth"] });
      throw new HubError("EIN0050");
    },
  };
}
