import type { BucketRule, TakeResult } from "./counters.js";

/** A bucket between two takes: tokens held (fractional) and when they were counted. */
export interface BucketState {
  readonly tokens: number;
  readonly updatedAtMs: number;
}

/**
 * The token-bucket rule, pure: refill since the last take (capped at burst), then spend `cost` if
 * that many tokens are there. A missing state is a full bucket. Time never runs backwards for a bucket,
 * so replicas with slightly different clocks cannot credit the same interval twice.
 */
export function takeTokens(
  state: BucketState | undefined,
  rule: BucketRule,
  cost: number,
  nowMs: number,
): { state: BucketState; result: TakeResult } {
  let tokens = rule.burst;
  let updatedAtMs = nowMs;
  if (state) {
    const elapsedMs = Math.max(0, nowMs - state.updatedAtMs);
    tokens = Math.min(rule.burst, state.tokens + (elapsedMs * rule.ratePerSecond) / 1000);
    updatedAtMs = Math.max(nowMs, state.updatedAtMs);
  }
  const allowed = tokens >= cost;
  if (allowed) tokens -= cost;
  return { state: { tokens, updatedAtMs }, result: describeBucket(tokens, allowed, rule, cost) };
}

/** The answer for a bucket holding `tokens` after a take that was (or was not) allowed. */
export function describeBucket(tokens: number, allowed: boolean, rule: BucketRule, cost: number): TakeResult {
  return {
    allowed,
    limit: rule.burst,
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.max(0, Math.ceil((rule.burst - tokens) / rule.ratePerSecond)),
    retryAfterMs: allowed ? 0 : Math.max(1, Math.ceil(((cost - tokens) * 1000) / rule.ratePerSecond)),
  };
}
