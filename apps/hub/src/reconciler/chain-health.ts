import type { Logger } from "pino";
import type { ChainIndexState } from "../chains/chain-progress.js";

/**
 * Records one pass over a chain in its state, and logs only when the chain changes state: the first
 * failure (failing, with the error) and the first success after failures (recovered, with how long
 * and how many passes failed). A chain that keeps failing logs nothing more; its state, the metrics
 * and the operator's readiness report say it is failing.
 */
export function recordChainOutcome(
  state: ChainIndexState,
  outcome: { ok: true } | { ok: false; error: string; level?: "warn" | "error" },
  nowMs: number,
  logger: Pick<Logger, "warn" | "error" | "info">,
): void {
  if (outcome.ok) {
    if (state.failingSinceMs !== undefined) {
      logger.info(
        {
          chainDomain: state.chainDomain,
          failedForMs: nowMs - state.failingSinceMs,
          failedPasses: state.consecutiveErrors ?? 0,
        },
        "reconciler chain recovered",
      );
    }
    state.lastSuccessAtMs = nowMs;
    delete state.failingSinceMs;
    delete state.lastError;
    state.consecutiveErrors = 0;
    return;
  }
  state.errors += 1;
  state.consecutiveErrors = (state.consecutiveErrors ?? 0) + 1;
  state.lastError = outcome.error;
  if (state.failingSinceMs === undefined) {
    state.failingSinceMs = nowMs;
    logger[outcome.level ?? "error"](
      { chainDomain: state.chainDomain, error: outcome.error },
      "reconciler chain failing: it is retried every pass, and this is logged again once it recovers",
    );
  }
}
