import type { Clock } from "@hub/clock";
import { HubError } from "@hub/contract";
import type { Logger } from "pino";
import { deadlineSignal } from "../upstream/deadline-signal.js";
import {
  type CandidateSource,
  MIN_SIGNING_WINDOW_MS,
  type ProviderAnswer,
  type QuoteCandidate,
  type QuoteRoundScope,
} from "./quote-candidate.js";
import type { QuoteMetrics } from "./quote-metrics.js";
import { compareQuotes } from "./rank-quotes.js";
import type { QuoteRoute } from "./resolve-quote-route.js";

export interface QuoteRoundDeps {
  /** Every provider kind, in the order their refusals are weighed. */
  sources: readonly CandidateSource[];
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  /** The whole round's deadline (the spec's 15 s by default). */
  deadlineMs: number;
}

export interface QuoteRound {
  /** Whether some source has a provider in scope. */
  serves(scope: { providerId?: string }): boolean;
  /**
   * Asks every source in scope in parallel, each provider call under its own timeout and all under the
   * round's deadline and the caller's signal; answers after that are dropped. Resolves to the candidates
   * still valid at the round's end, best first; refuses when none is left.
   */
  run(route: QuoteRoute, scope: QuoteRoundScope, signal: AbortSignal | undefined): Promise<QuoteCandidate[]>;
}

/** The refusal when no quote provider is configured (or none is in scope). */
export function noQuoteProvider(): HubError {
  return new HubError("EIN0008", { message: "No viable route: no quote provider is configured." });
}

/** A source's refusal when none of its calls left a candidate: what its providers' outcomes say. */
function refusalOf(answers: readonly ProviderAnswer[], noneMessage: string): HubError {
  const kinds = new Set(answers.map((answer) => answer.kind));
  if (kinds.has("quotes") || kinds.has("no-quotes") || kinds.has("refused")) {
    return new HubError("EIN0008", { message: noneMessage });
  }
  if (kinds.has("rate-limited")) return new HubError("EIN0081");
  if (kinds.has("auth-refused")) return new HubError("EIN0050", { params: ["upstreamAuth"] });
  return new HubError("EIN0050");
}

export function createQuoteRound(deps: QuoteRoundDeps): QuoteRound {
  const { metrics, logger, clock } = deps;

  // A candidate vetted early may have run out of time while another call was still answering.
  function stillValid(candidate: QuoteCandidate, endMs: number): boolean {
    if (candidate.validUntilMs - endMs >= (candidate.minValidityMs ?? MIN_SIGNING_WINDOW_MS)) return true;
    metrics.vettingRejected(candidate.providerId, "expired");
    logger.warn(
      {
        provider: candidate.providerId,
        solverId: candidate.solverId,
        lane: candidate.lane,
        reason: "expired",
      },
      "quote discarded: too little validity left when every source had answered",
    );
    return false;
  }

  return {
    serves: (scope) => deps.sources.some((source) => source.serves(scope)),

    async run(route, scope, signal) {
      const inScope = deps.sources.filter((source) => source.serves(scope));
      if (inScope.length === 0) throw noQuoteProvider();
      const deadline = deadlineSignal(signal, deps.deadlineMs);
      const started = performance.now();
      let settled: PromiseSettledResult<Awaited<ReturnType<CandidateSource["ask"]>>>[];
      try {
        settled = await Promise.allSettled(
          inScope.map((source) => source.ask(route, scope, deadline.signal)),
        );
      } finally {
        deadline.dispose();
      }
      const seconds = (performance.now() - started) / 1000;
      const endMs = clock.now();
      const candidates: QuoteCandidate[] = [];
      const refusals: unknown[] = [];
      for (const result of settled) {
        if (result.status === "rejected") {
          refusals.push(result.reason);
          continue;
        }
        if (result.value === undefined) continue;
        const { answers, noneMessage } = result.value;
        const valid = answers.flatMap((answer) => answer.candidates).filter((c) => stillValid(c, endMs));
        if (valid.length > 0) candidates.push(...valid);
        else refusals.push(refusalOf(answers, noneMessage));
      }
      metrics.roundFinished(seconds, candidates.length > 0 ? "quotes" : "none");
      if (candidates.length > 0) return candidates.sort((a, b) => compareQuotes(a, b, route.swapType));
      signal?.throwIfAborted();
      // Any candidate wins over every refusal; with none, the refusal that says most: no viable route
      // (EIN0008) over busy (EIN0081) over unavailable (EIN0050).
      for (const code of ["EIN0008", "EIN0081", "EIN0050"]) {
        const refusal = refusals.find((reason) => reason instanceof HubError && reason.code === code);
        if (refusal) throw refusal;
      }
      if (refusals[0] !== undefined) throw refusals[0];
      throw new HubError("EIN0008", { message: "No viable route: no provider offered a quote." });
    },
  };
}
