import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import type { OifLane } from "../../lanes/lane-table.js";
import type { ProviderAnswer, QuoteRoundScope } from "../../quotes/quote-candidate.js";
import type { QuoteMetrics } from "../../quotes/quote-metrics.js";
import type { QuoteRoute } from "../../quotes/resolve-quote-route.js";
import { buildOifQuoteRequest, type OifQuoteAddresses } from "./build-oif-quote-request.js";
import type { OifAggregatorClient } from "./oif-aggregator-client.js";
import type { ProviderPace } from "./provider-pace.js";
import type { HeldOutcome, SourceVetting } from "./source-vetting.js";
import { type VettedOifQuote, vetOifQuote } from "./vet-oif-quote.js";

/** What one OIF call came to: its outcome's kind and the quotes that passed vetting. */
export interface OifAnswer {
  kind: ProviderAnswer["kind"];
  quotes: VettedOifQuote[];
}

/** What asking one provider needs of the round's dependencies. */
export interface OifCallDeps {
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  pace?: ProviderPace;
  maxDeadlineMs?: number;
}

/** One round's terms, the same for every call it makes. */
export interface OifRound {
  route: QuoteRoute;
  scope: QuoteRoundScope;
  signal: AbortSignal;
  addresses: OifQuoteAddresses;
  /** Set when the route's source is on another chain family. */
  vetting: SourceVetting | undefined;
}

/** The quotes that passed vetting (for the solver asked for, if one was); each discarded one counted and logged. */
function keptQuotes(
  deps: OifCallDeps,
  round: OifRound,
  call: { providerId: string; lane: OifLane },
  outcomes: HeldOutcome[],
): VettedOifQuote[] {
  const quotes: VettedOifQuote[] = [];
  for (const vetted of outcomes) {
    if (vetted.ok) {
      // A provider asked for one solver answers for that one only.
      if (round.scope.solverId === undefined || vetted.quote.solverId === round.scope.solverId)
        quotes.push(vetted.quote);
      continue;
    }
    deps.metrics.vettingRejected(call.providerId, vetted.reason);
    deps.logger.warn(
      {
        provider: call.providerId,
        solverId: vetted.solverId,
        lane: call.lane,
        reason: vetted.reason,
        detail: vetted.detail,
      },
      "upstream quote discarded by vetting",
    );
  }
  return quotes;
}

/** Asks one provider for one lane of the round's route and vets every answer it gives. */
export async function askOifProvider(
  deps: OifCallDeps,
  round: OifRound,
  client: OifAggregatorClient,
  lane: OifLane,
): Promise<OifAnswer> {
  const { route, vetting } = round;
  const providerId = client.provider.id;
  const request = buildOifQuoteRequest(
    route,
    lane,
    { providerTimeoutMs: client.provider.timeoutMs, solverId: round.scope.solverId },
    round.addresses,
  );
  const started = performance.now();
  const outcome = await client.quote(request, round.signal);
  if (outcome.kind !== "unavailable" || outcome.reason !== "aborted") {
    deps.pace?.answered(providerId, performance.now() - started);
  }
  deps.metrics.providerOutcome(providerId, outcome.kind);
  if (outcome.kind !== "quotes") {
    if (outcome.kind !== "no-quotes") {
      deps.logger.warn({ provider: providerId, lane, outcome }, "provider gave no quotes to a round");
    }
    return { kind: outcome.kind, quotes: [] };
  }
  const outcomes: HeldOutcome[] = await Promise.all(
    outcome.quotes.map((raw) => {
      const context = {
        providerId,
        route,
        askedLane: lane,
        nowMs: deps.clock.now(),
        ...(deps.maxDeadlineMs !== undefined ? { maxDeadlineMs: deps.maxDeadlineMs } : {}),
      };
      return vetting ? vetting.vet(raw, context, client.provider) : vetOifQuote(raw, context);
    }),
  );
  const quotes = keptQuotes(deps, round, { providerId, lane }, outcomes);
  // A chain the hub could not ask is an availability matter (EIN0050), not a lack of routes.
  if (quotes.length === 0 && outcomes.some((vetted) => !vetted.ok && vetted.chainUnavailable)) {
    return { kind: "unavailable", quotes };
  }
  return { kind: "quotes", quotes };
}
