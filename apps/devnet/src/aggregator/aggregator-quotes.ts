import { randomUUID } from "node:crypto";
import { AggregatorError } from "./aggregator-error.js";
import type { AggregatorState, SolverEntry } from "./aggregator-state.js";
import { computeIntegrityChecksum } from "./integrity-checksum.js";
import {
  type QuoteResponse,
  type QuotesResponse,
  type SolverQuote,
  solverQuotesResponseSchema,
} from "./oif-quote.js";
import {
  type AggregatorQuoteRequest,
  type GetQuoteRequest,
  validateQuoteRequest,
} from "./oif-quote-request.js";

const bounds = { solverMin: 100, solverMax: 30_000, globalMax: 60_000 };

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

type SolverOptions = NonNullable<AggregatorQuoteRequest["solverOptions"]>;

/** How a round went: solvers that answered, that failed, that ran out of time. */
interface RoundTally {
  success: number;
  errors: number;
  timedOut: number;
}

/** Asks the selected solvers in parallel within the round's timeouts and signs every quote they give. */
export async function aggregateQuotes(
  state: AggregatorState,
  request: AggregatorQuoteRequest,
): Promise<QuotesResponse> {
  const started = state.clock.now();
  const problem = validateQuoteRequest(request);
  if (problem) throw new AggregatorError(400, "VALIDATION_ERROR", `Invalid request: ${problem}`);
  const options = request.solverOptions ?? {};
  const { perSolverMs, wholeMs } = roundTimeouts(state, options);
  const selected = selectSolvers(state, options);
  const forwarded: GetQuoteRequest = {
    user: request.user,
    intent: request.intent,
    supportedTypes: request.supportedTypes,
  };
  const whole = AbortSignal.timeout(wholeMs);
  const tally: RoundTally = { success: 0, errors: 0, timedOut: 0 };
  const rounds = await Promise.all(
    selected.map((entry) => askSolver(state, entry, forwarded, { perSolverMs, whole }, tally)),
  );
  const quotes = rounds.flat().sort((a, b) => (a.eta ?? Infinity) - (b.eta ?? Infinity));
  if (quotes.length === 0)
    throw new AggregatorError(400, "AGGREGATION_ERROR", "All solvers failed to provide quotes");
  return {
    quotes,
    totalQuotes: quotes.length,
    metadata: {
      totalDurationMs: state.clock.now() - started,
      solverTimeoutMs: perSolverMs,
      globalTimeoutMs: wholeMs,
      earlyTermination: false,
      totalSolversAvailable: state.solvers.size,
      solversQueried: selected.length,
      solversRespondedSuccess: tally.success,
      solversRespondedError: tally.errors,
      solversTimedOut: tally.timedOut,
      minQuotesRequired: options.minQuotes ?? 30,
      solverSelectionMode: options.solverSelection ?? "all",
    },
  };
}

function roundTimeouts(
  state: AggregatorState,
  options: SolverOptions,
): { perSolverMs: number; wholeMs: number } {
  // A request naming only the round's timeout shortens the per-solver default to fit inside it.
  const perSolverMs =
    options.solverTimeout ?? Math.min(state.solverTimeoutMs, options.timeout ?? state.solverTimeoutMs);
  const wholeMs = options.timeout ?? Math.max(state.globalTimeoutMs, perSolverMs);
  if (perSolverMs < bounds.solverMin || perSolverMs > bounds.solverMax)
    throw new AggregatorError(
      400,
      "VALIDATION_ERROR",
      "Invalid request: solverTimeout must be 100..30000 ms",
    );
  if (wholeMs < perSolverMs || wholeMs > bounds.globalMax)
    throw new AggregatorError(
      400,
      "VALIDATION_ERROR",
      "Invalid request: timeout must be solverTimeout..60000 ms",
    );
  return { perSolverMs, wholeMs };
}

function selectSolvers(state: AggregatorState, options: SolverOptions): SolverEntry[] {
  const selected = [...state.solvers.values()].filter(
    (s) =>
      (!options.includeSolvers || options.includeSolvers.includes(s.config.solverId)) &&
      !options.excludeSolvers?.includes(s.config.solverId),
  );
  if (selected.length === 0) throw new AggregatorError(400, "AGGREGATION_ERROR", "No solvers available");
  return selected;
}

/** One solver's quotes, each signed; none when it fails or runs out of time (counted in the tally). */
async function askSolver(
  state: AggregatorState,
  entry: SolverEntry,
  forwarded: GetQuoteRequest,
  timeouts: { perSolverMs: number; whole: AbortSignal },
  tally: RoundTally,
): Promise<QuoteResponse[]> {
  // Held in this scope (read in the catch below): Node 20's AbortSignal.any holds its sources
  // weakly, and a timeout signal nothing else holds is collected at the next GC and never fires
  // (nodejs/node#57736; an inline AbortSignal.timeout here was lost in 20 of 20 tries with a GC
  // during the wait), so a slow solver was kept in the round past its per-solver timeout.
  const perSolver = AbortSignal.timeout(timeouts.perSolverMs);
  const signal = AbortSignal.any([perSolver, timeouts.whole]);
  try {
    const parsed = solverQuotesResponseSchema.safeParse(await entry.client.getQuotes(forwarded, signal));
    if (!parsed.success) {
      tally.errors += 1;
      return [];
    }
    tally.success += 1;
    entry.lastSeen = state.iso();
    return parsed.data.quotes.map((quote) => signedQuote(state, entry, quote));
  } catch (error) {
    if (isAbort(error) || perSolver.aborted) tally.timedOut += 1;
    else tally.errors += 1;
    return [];
  }
}

function signedQuote(state: AggregatorState, entry: SolverEntry, quote: SolverQuote): QuoteResponse {
  const unsigned = {
    quoteId: quote.quoteId ?? `oif-quote-${randomUUID()}`,
    solverId: entry.config.solverId,
    order: quote.order,
    ...(quote.validUntil !== undefined ? { validUntil: quote.validUntil } : {}),
    ...(quote.eta !== undefined ? { eta: quote.eta } : {}),
    ...(quote.provider !== undefined ? { provider: quote.provider } : {}),
    ...(quote.failureHandling !== undefined ? { failureHandling: quote.failureHandling } : {}),
    partialFill: quote.partialFill,
    preview: quote.preview,
  };
  return {
    ...unsigned,
    integrityChecksum: computeIntegrityChecksum(state.config.integritySecret, unsigned),
    ...(quote.metadata !== undefined ? { metadata: quote.metadata } : {}),
  };
}
