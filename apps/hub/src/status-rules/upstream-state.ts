/** The upstream view's states in their one forward order; failed and refunded sit outside it. */
export const upstreamForwardStates = [
  "created",
  "pending",
  "executing",
  "executed",
  "settling",
  "settled",
  "finalized",
] as const;

export const upstreamStates = [...upstreamForwardStates, "failed", "refunded"] as const;

export type UpstreamState = (typeof upstreamStates)[number];

/** finalized, failed, refunded; settled is not terminal (it can still become any of them). */
export const upstreamTerminalStates: ReadonlySet<UpstreamState> = new Set([
  "finalized",
  "failed",
  "refunded",
]);

/** The stage names the aggregator puts on the failure arm; displayed as an enum, no meaning attached. */
export const upstreamFailedAtValues = ["Prepare", "Fill", "PostFill", "PreClaim", "Claim"] as const;

export type UpstreamFailedAt = (typeof upstreamFailedAtValues)[number];

export function isUpstreamState(value: unknown): value is UpstreamState {
  return typeof value === "string" && (upstreamStates as readonly string[]).includes(value);
}

export function isUpstreamTerminal(state: UpstreamState): boolean {
  return upstreamTerminalStates.has(state);
}

/** Position in the forward order, or undefined for failed and refunded. */
export function upstreamForwardRank(state: UpstreamState): number | undefined {
  const rank = (upstreamForwardStates as readonly string[]).indexOf(state);
  return rank === -1 ? undefined : rank;
}
