import type { Clock } from "@hub/clock";
import { HubError } from "@hub/contract";
import { address } from "@solana/kit";
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from "@solana-program/token";
import type { Logger } from "pino";
import { laneTable, type OifLane } from "../../lanes/lane-table.js";
import type { OifAggregatorClient } from "../../upstream/oif-aggregator-client.js";
import type { ProviderAnswer, QuoteRoundScope } from "../quote-candidate.js";
import type { QuoteMetrics } from "../quote-metrics.js";
import type { QuoteRoute } from "../resolve-quote-route.js";
import {
  buildOifQuoteRequest,
  type OifQuoteAddresses,
  oifQuoteAddresses,
} from "./build-oif-quote-request.js";
import { type ProviderPace, slowestProvider } from "./provider-pace.js";
import type { SolanaBlockhashChecker } from "./solana-blockhash-checker.js";
import { type VetOutcome, type VettedOifQuote, vetOifQuote } from "./vet-oif-quote.js";

export interface OifProvidersDeps {
  /** The providers a round asks (the enabled ones). */
  providers: readonly OifAggregatorClient[];
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  /** Asks a Solana chain whether an answer's recent blockhash is valid; absent: every Solana answer is discarded. */
  solanaBlockhashes?: SolanaBlockhashChecker;
  /** Each provider's recent answer time; with it, a round asks the slowest provider first. */
  pace?: ProviderPace;
}

/** What one OIF call came to: its outcome's kind and the quotes that passed vetting. */
export interface OifAnswer {
  kind: ProviderAnswer["kind"];
  quotes: VettedOifQuote[];
}

/** The EIN0008 message of an OIF round whose providers answered but left no candidate. */
export const OIF_NONE_MESSAGE = "No viable route: no provider offered a quote that passed the hub's checks.";

/** Whether an OIF provider is in scope. */
export function oifProvidersServe(deps: OifProvidersDeps, scope: { providerId?: string }): boolean {
  return deps.providers.some(
    (client) => scope.providerId === undefined || client.provider.id === scope.providerId,
  );
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
  const { metrics, logger, clock } = deps;
  // The sender's token account the deposit must come from, derived once for the round.
  const sourceTokenAccount =
    route.direction === "solana-to-evm"
      ? (
          await findAssociatedTokenPda({
            owner: address(route.user),
            mint: address(route.source.mint),
            tokenProgram: TOKEN_PROGRAM_ADDRESS,
          })
        )[0]
      : undefined;

  /** The chain's word on a vetted Solana answer's blockhash: invalid or unanswered, it is discarded. */
  async function blockhashHeld(outcome: VetOutcome): Promise<VetOutcome> {
    if (!outcome.ok || outcome.quote.lane !== "oif-escrow-nonevm") return outcome;
    const { recentBlockhash } = outcome.quote.solana;
    const validity = deps.solanaBlockhashes
      ? await deps.solanaBlockhashes.check(route.source.chain.chainDomain, recentBlockhash)
      : ({ kind: "unavailable", cause: "the hub reads no Solana chain" } as const);
    if (validity.kind === "valid") return outcome;
    return {
      ok: false,
      reason: "blockhash",
      detail:
        validity.kind === "invalid"
          ? `recent blockhash ${recentBlockhash} is not valid on the chain`
          : `recent blockhash ${recentBlockhash} could not be checked: ${validity.cause}`,
      solverId: outcome.quote.solverId,
    };
  }

  async function ask(
    client: OifAggregatorClient,
    lane: OifLane,
    addresses: OifQuoteAddresses,
  ): Promise<OifAnswer> {
    const providerId = client.provider.id;
    const request = buildOifQuoteRequest(
      route,
      lane,
      { providerTimeoutMs: client.provider.timeoutMs, solverId: scope.solverId },
      addresses,
    );
    const started = performance.now();
    const outcome = await client.quote(request, signal);
    if (outcome.kind !== "unavailable" || outcome.reason !== "aborted") {
      deps.pace?.answered(providerId, performance.now() - started);
    }
    metrics.providerOutcome(providerId, outcome.kind);
    if (outcome.kind !== "quotes") {
      if (outcome.kind !== "no-quotes") {
        logger.warn({ provider: providerId, lane, outcome }, "provider gave no quotes to a round");
      }
      return { kind: outcome.kind, quotes: [] };
    }
    const quotes: VettedOifQuote[] = [];
    const solana =
      sourceTokenAccount === undefined
        ? undefined
        : { feePayers: client.provider.solanaFeePayers, sourceTokenAccount };
    const outcomes = await Promise.all(
      outcome.quotes.map((raw) =>
        blockhashHeld(
          vetOifQuote(raw, {
            providerId,
            route,
            askedLane: lane,
            nowMs: clock.now(),
            ...(solana ? { solana } : {}),
          }),
        ),
      ),
    );
    for (const vetted of outcomes) {
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

  const calls: { client: OifAggregatorClient; lane: OifLane }[] = [];
  for (const client of deps.providers) {
    if (scope.providerId !== undefined && client.provider.id !== scope.providerId) continue;
    for (const lane of route.lanes) {
      if (client.provider.products.includes(laneTable[lane].oif.product)) calls.push({ client, lane });
    }
  }
  if (calls.length === 0) {
    throw new HubError("EIN0008", { message: "No viable route: no provider serves this route's lanes." });
  }
  const addresses = oifQuoteAddresses(route);
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
      return await Promise.all(calls.map(({ client, lane }) => ask(client, lane, addresses)));
    }
    const firstAsked = calls.map(({ client, lane }) =>
      client.provider.id === first ? ask(client, lane, addresses) : undefined,
    );
    const turn = new Promise<void>((resolve) => setImmediate(resolve));
    return await Promise.all(
      calls.map(({ client, lane }, i) => firstAsked[i] ?? turn.then(() => ask(client, lane, addresses))),
    );
  } finally {
    asking?.done();
  }
}
