import type { ReconcilerState } from "./reconciler-state.js";

/** Deletes one batch of quotes past their retention that no order refers to; a failure is logged, never thrown. */
export async function pruneQuotes(state: ReconcilerState): Promise<number> {
  const { deps } = state;
  if (!deps.quotePruning || state.stopping) return 0;
  const { retentionMs, batchSize = 500 } = deps.quotePruning;
  try {
    const pruned = await state.quotes.deleteExpiredUnreferenced(
      new Date(deps.clock.now() - retentionMs),
      batchSize,
    );
    if (pruned > 0) deps.logger.debug({ pruned }, "reconciler pruned expired quotes");
    return pruned;
  } catch (error) {
    deps.logger.warn(
      { error: error instanceof Error ? error.message : String(error) },
      "reconciler could not prune expired quotes",
    );
    return 0;
  }
}
