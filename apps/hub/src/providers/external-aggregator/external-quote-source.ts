import type { Clock } from "@hub/clock";
import { HubError } from "@hub/contract";
import type { Logger } from "pino";
import type { ExternalAggregatorClient } from "./external-aggregator-client.js";
import {
  type CandidateSource,
  MIN_SIGNING_WINDOW_MS,
  type ProviderAnswer,
  type QuoteRoundScope,
} from "../../quotes/quote-candidate.js";
import type { QuoteMetrics } from "../../quotes/quote-metrics.js";
import type { EvmQuoteRoute } from "../../quotes/resolve-quote-route.js";
import { externalCandidate } from "./external-candidate.js";
import { vetExternalQuote } from "./vet-external-quote.js";

export interface ExternalQuoteSourceDeps {
  /** The enabled external aggregators. */
  clients: readonly ExternalAggregatorClient[];
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  /**
   * The least validity an open-flow answer must have left when vetted (hub config
   * `openFlowMinValidityMs`, 15 s by default): the user mines two transactions before POST /order.
   */
  openFlowMinValidityMs: number;
  /** How far ahead an answer's expiresAt may lie (hub config `quoteMaxDeadlineMs`); 24 h when absent. */
  maxDeadlineMs?: number;
}

function noRoute(message: string): HubError {
  return new HubError("EIN0008", { message: `No viable route: ${message}` });
}

/**
 * The external aggregators as a source of quote rounds: each enabled one in scope is asked once,
 * under its timeout and the round's signal; every answer is vetted before it can win. Proxy-lane sources (native coin, undeclared token) and exact-output requests are not theirs:
 * for those the source contributes no candidate and no refusal, so another source's refusal (a
 * retryable EIN0050 or EIN0081 of a provider that is down) is the answer, not a terminal EIN0008.
 */
export function createExternalQuoteSource(deps: ExternalQuoteSourceDeps): CandidateSource {
  const { metrics, logger, clock } = deps;
  const inScope = (scope: { providerId?: string }) =>
    deps.clients.filter(
      (client) => scope.providerId === undefined || client.provider.id === scope.providerId,
    );

  async function ask(
    client: ExternalAggregatorClient,
    route: EvmQuoteRoute,
    scope: QuoteRoundScope,
    signal: AbortSignal,
  ): Promise<ProviderAnswer> {
    const providerId = client.provider.id;
    const outcome = await client.quote(
      {
        sourceAsset: route.source.asset.key,
        destinationAsset: route.destination.asset.key,
        amount: route.amount.toString(),
        recipient: route.recipient,
        ...(route.sourceAccountSent ? { sourceAccount: route.user } : {}),
      },
      signal,
    );
    const kind = outcome.kind === "quote" ? "quotes" : outcome.kind;
    metrics.providerOutcome(providerId, kind);
    if (outcome.kind !== "quote") {
      if (outcome.kind !== "no-quotes") {
        logger.warn({ provider: providerId, outcome }, "external aggregator gave no quote to a round");
      }
      return { kind, candidates: [] };
    }
    const vetted = vetExternalQuote(outcome.quote, {
      providerId,
      route,
      nowMs: clock.now(),
      minValidityMs: MIN_SIGNING_WINDOW_MS,
      openFlowMinValidityMs: deps.openFlowMinValidityMs,
      ...(deps.maxDeadlineMs !== undefined ? { maxDeadlineMs: deps.maxDeadlineMs } : {}),
    });
    if (!vetted.ok) {
      metrics.vettingRejected(providerId, vetted.reason);
      logger.warn(
        {
          provider: providerId,
          upstreamQuoteId: vetted.upstreamQuoteId,
          reason: vetted.reason,
          detail: vetted.detail,
        },
        "external quote discarded by vetting",
      );
      return { kind: "quotes", candidates: [] };
    }
    if (scope.solverId !== undefined && vetted.quote.solverId !== scope.solverId) {
      return { kind: "quotes", candidates: [] };
    }
    return {
      kind: "quotes",
      candidates: [externalCandidate(vetted.quote, route, deps.openFlowMinValidityMs)],
    };
  }

  return {
    serves: (scope) => inScope(scope).length > 0,

    async ask(route, scope, signal) {
      // External aggregators quote EVM chains only.
      if (route.direction !== "evm" || route.proxy || route.swapType !== "exact-input") return undefined;
      const clients = inScope(scope);
      if (clients.length === 0) throw noRoute("no external aggregator is in scope.");
      return {
        answers: await Promise.all(clients.map((client) => ask(client, route, scope, signal))),
        noneMessage: "No viable route: no external aggregator offered a quote that passed the hub's checks.",
      };
    },
  };
}
