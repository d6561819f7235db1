import { z } from "zod";

/** Stages a solver can be told to fail at; the names are the OIF `TransactionType` values. */
export const failStages = ["Prepare", "Fill", "PostFill", "PreClaim", "Claim"] as const;
export type FailStage = (typeof failStages)[number];

export const solverFaultKnobsSchema = z
  .object({
    /** POST /orders answers HTTP 422 `SOLVER_REJECTED`; nothing is opened. */
    refuseOrders: z.boolean(),
    /** Every route of the solver answers HTTP 429 with `Retry-After`. */
    rateLimited: z.boolean(),
    /** Added before every answer of the solver's HTTP API. */
    latencyMs: z.number().int().min(0).max(600_000),
    /** Requests are held without an answer until the knob is cleared (then answered) or the server closes. */
    hang: z.boolean(),
    /** The connection is reset without an answer. */
    down: z.boolean(),
    /** The order still fills and settles on chain, but the status read stays at `executed` with no fillTransaction. */
    stallAfterExecuted: z.boolean(),
    /** The next status read that can carry it reports a state behind the real one, or one outside the enum. */
    reportOnce: z.enum(["backwards", "unknown"]),
    /** The solver stops at this stage and reports `{"failed":[stage, message]}`. */
    failAt: z.enum(failStages),
    /**
     * The solver's EVM quotes carry a fillDeadline this many seconds past the chains' time instead of
     * its own 300 (an upstream quoting far deadlines; the hub refuses past its bound).
     */
    fillDeadlineSeconds: z
      .number()
      .int()
      .min(1)
      .max(10 * 365 * 86_400),
    /** The same for `expires` (600 without it, and never before the fillDeadline). */
    expiresSeconds: z
      .number()
      .int()
      .min(1)
      .max(10 * 365 * 86_400),
  })
  .partial()
  .strict();
export type SolverFaultKnobs = z.infer<typeof solverFaultKnobsSchema>;

export const aggregatorFaultKnobsSchema = z
  .object({
    /** Every aggregator route resets the connection. */
    down: z.boolean(),
    /** Every aggregator route holds the request without an answer until cleared or the server closes. */
    hang: z.boolean(),
    /** Added before every aggregator answer. */
    latencyMs: z.number().int().min(0).max(600_000),
    /** Every aggregator route answers HTTP 429 with `Retry-After`, as a rate-limited upstream. */
    rateLimited: z.boolean(),
  })
  .partial()
  .strict();
export type AggregatorFaultKnobs = z.infer<typeof aggregatorFaultKnobsSchema>;

/** How a held request ended: the knob was cleared, or the server is closing. */
export type HoldOutcome = "released" | "closing";

export interface FaultKnobs {
  readonly solverIds: readonly string[];
  get(solverId: string): SolverFaultKnobs;
  /** Merges into the solver's knobs; a knob set to `undefined` is cleared. */
  set(solverId: string, knobs: SolverFaultKnobs): SolverFaultKnobs;
  /** Clears one solver's knobs, or every solver's and the aggregator's when no id is given. */
  reset(solverId?: string): void;
  /** Reads and clears the one-shot report knob. */
  takeReportOnce(solverId: string): SolverFaultKnobs["reportOnce"];
  getAggregator(): AggregatorFaultKnobs;
  setAggregator(knobs: AggregatorFaultKnobs): AggregatorFaultKnobs;
  resetAggregator(): void;
  /** Waits while `held()` is true; wakes on every knob change and on `releaseAll()`. */
  hold(held: () => boolean): Promise<HoldOutcome>;
  /** Ends every hold with "closing"; the route plugins call it when their server closes. */
  releaseAll(): void;
}

/** The per-solver and aggregator fault registry the devnet's control server and the route plugins share. */
export function createFaultKnobs(config: { solverIds: readonly string[] }): FaultKnobs {
  const solverKnobs = new Map<string, SolverFaultKnobs>();
  let aggregatorKnobs: AggregatorFaultKnobs = {};
  let waiters: Array<(outcome: HoldOutcome) => void> = [];

  function wake(outcome: HoldOutcome): void {
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve(outcome);
  }

  function known(solverId: string): void {
    if (!config.solverIds.includes(solverId)) throw new Error(`unknown solver ${solverId}`);
  }

  function merge<T extends object>(current: T, change: T): T {
    const next: Record<string, unknown> = { ...(current as Record<string, unknown>) };
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete next[key];
      else next[key] = value;
    }
    return next as T;
  }

  return {
    solverIds: config.solverIds,
    get(solverId) {
      return { ...(solverKnobs.get(solverId) ?? {}) };
    },
    set(solverId, knobs) {
      known(solverId);
      const next = merge(solverKnobs.get(solverId) ?? {}, solverFaultKnobsSchema.parse(knobs));
      solverKnobs.set(solverId, next);
      wake("released");
      return { ...next };
    },
    reset(solverId) {
      if (solverId === undefined) {
        solverKnobs.clear();
        aggregatorKnobs = {};
      } else {
        known(solverId);
        solverKnobs.delete(solverId);
      }
      wake("released");
    },
    takeReportOnce(solverId) {
      const knobs = solverKnobs.get(solverId);
      const once = knobs?.reportOnce;
      if (knobs && once) {
        const { reportOnce: _taken, ...rest } = knobs;
        solverKnobs.set(solverId, rest);
      }
      return once;
    },
    getAggregator() {
      return { ...aggregatorKnobs };
    },
    setAggregator(knobs) {
      aggregatorKnobs = merge(aggregatorKnobs, aggregatorFaultKnobsSchema.parse(knobs));
      wake("released");
      return { ...aggregatorKnobs };
    },
    resetAggregator() {
      aggregatorKnobs = {};
      wake("released");
    },
    async hold(held) {
      while (held()) {
        const outcome = await new Promise<HoldOutcome>((resolve) => waiters.push(resolve));
        if (outcome === "closing") return "closing";
      }
      return "released";
    },
    releaseAll() {
      wake("closing");
    },
  };
}
