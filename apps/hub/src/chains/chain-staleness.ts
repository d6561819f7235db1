import type { ChainIndexState } from "./chain-progress.js";

/** What the reconciler in this process knows of a chain's health (only a leader's view is current). */
export interface ChainHealthSource {
  readonly leader: boolean;
  chainStates(): ChainIndexState[];
}

/** The bound past which a chain with no successful pass is named stale, whatever its block lag. */
export interface ChainStaleness {
  source: ChainHealthSource;
  staleAfterMs: number;
  now: () => number;
}

/**
 * Why the leader's reconciler has not indexed the chain successfully for longer than the bound, or
 * undefined (also on a follower, whose view is not current: the leader's report names it).
 */
export function staleChainDetail(
  staleness: ChainStaleness | undefined,
  chainDomain: string,
): string | undefined {
  if (!staleness?.source.leader) return undefined;
  const state = staleness.source.chainStates().find((entry) => entry.chainDomain === chainDomain);
  if (!state) return undefined;
  const since = state.lastSuccessAtMs ?? state.sinceMs;
  if (since === undefined) return undefined;
  const quietMs = staleness.now() - since;
  if (quietMs <= staleness.staleAfterMs) return undefined;
  const seconds = Math.round(quietMs / 1000);
  const what =
    state.lastSuccessAtMs === undefined
      ? `has not indexed ${chainDomain} successfully since it started ${seconds} s ago`
      : `has not indexed ${chainDomain} successfully for ${seconds} s`;
  return `the reconciler ${what} (bound ${Math.round(staleness.staleAfterMs / 1000)} s)${state.lastError ? `: ${state.lastError}` : ""}`;
}
