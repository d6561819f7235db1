import type { Clock } from "@hub/clock";
import { HubError } from "@hub/contract";
import type { Logger } from "pino";
import { laneTable, type OifLane } from "../../lanes/lane-table.js";
import type { QuoteRoundScope } from "../../quotes/quote-candidate.js";
import type { QuoteMetrics } from "../../quotes/quote-metrics.js";
import type { QuoteRoute } from "../../quotes/resolve-quote-route.js";
import { type OifAnswer, type OifRound, askOifProvider } from "./ask-oif-provider.js";
import { oifQuoteAddresses } from "./build-oif-quote-request.js";
import type { OifAggregatorClient } from "./oif-aggregator-client.js";
import { type ProviderPace, slowestProvider } from "./provider-pace.js";
import type { SourceVettingOf } from "./source-vetting.js";

export type { OifAnswer } from "./ask-oif-provider.js";

export interface OifProvidersDeps {
  /** The providers a round asks (the enabled ones). */
  providers: readonly OifAggregatorClient[];
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  /** What a source on another chain family adds to vetting; absent, its answers have no facts to pass. */
  sourceVetting?: SourceVettingOf;
  /** Each provider's recent answer time; with it, a round asks the slowest provider first. */
  pace?: ProviderPace;
  /** How far ahead an answer's deadlines may lie (hub config `quoteMaxDeadlineMs`); 24 h when absent. */
  maxDeadlineMs?: number;
}

/** The EIN0008 message of an OIF round whose providers answered but left no candidate. */
export const OIF_NONE_MESSAGE = "No viable route: no provider offered a quote that passed the hub's checks.";

/** Whether an OIF provider is in scope. */
export function oifProvidersServe(deps: OifProvidersDeps, scope: { providerId?: string }): boolean {
  return deps.providers.some(
    (client) => scope.providerId === undefined || client.provider.id === scope.providerId,
  );
}

/** Every (provider, lane) call of the round: the providers in scope, each for the route's lanes it carries. */
function callsOf(
  deps: OifProvidersDeps,
  route: QuoteRoute,
  scope: QuoteRoundScope,
): { client: OifAggregatorClient; lane: OifLane }[] {
  const calls: { client: OifAggregatorClient; lane: OifLane }[] = [];
  for (const client of deps.providers) {
    if (scope.providerId !== undefined && client.provider.id !== scope.providerId) continue;
    for (const lane of route.lanes) {
      if (client.provider.products.includes(laneTable[lane].oif.product)) calls.push({ client, lane });
    }
  }
  return calls;
}

/**
 * Asks every OIF provider in scope for every lane of the route it carries, in parallel under the
 * round's signal, and vets each answer. Refuses (EIN0008) when no provider in scope carries a lane.
 */
export async function askOifProviders(
  deps: OifProvidersDeps,
  route: QuoteRoute,
  scope: QuoteRoundScope,
  signal: AbortSignal,
): Promise<OifAnswer[]> {
  const deriving = deps.sourceVetting?.(route);
  const vetting = deriving === undefined ? undefined : await deriving;
  const calls = callsOf(deps, route, scope);
  if (calls.length === 0) {
    throw new HubError("EIN0008", { message: "No viable route: no provider serves this route's lanes." });
  }
  const round: OifRound = { route, scope, signal, addresses: oifQuoteAddresses(route), vetting };
  const ask = (client: OifAggregatorClient, lane: OifLane) => askOifProvider(deps, round, client, lane);
  const pace = deps.pace;
  const asking = pace?.asking();
  try {
    // Alone, a round ends on its slowest provider: its calls are made (and written) first, and the
    // others a loop turn later. Beside other rounds the CPU is busy anyway and the extra turn only
    // costs (issue 13).
    const first =
      pace !== undefined && asking?.others === 0
        ? slowestProvider(pace, [...new Set(calls.map(({ client }) => client.provider.id))])
        : undefined;
    if (first === undefined) {
      return await Promise.all(calls.map(({ client, lane }) => ask(client, lane)));
    }
    const firstAsked = calls.map(({ client, lane }) =>
      client.provider.id === first ? ask(client, lane) : undefined,
    );
    const turn = new Promise<void>((resolve) => setImmediate(resolve));
    return await Promise.all(
      calls.map(({ client, lane }, i) => firstAsked[i] ?? turn.then(() => ask(client, lane))),
    );
  } finally {
    asking?.done();
  }
}
