import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import type { MinuteTally } from "./minute-tally.js";
import type { UsageWriter } from "./usage-writer.js";

export interface UsageTallyConfig {
  readonly flushMs?: number;
  /** Organizations counted per minute; calls of further ones in that minute are dropped (and logged). */
  readonly maxOrganizationsPerMinute?: number;
  /** Minutes kept while writes fail; the oldest are dropped (and logged) beyond it. */
  readonly maxPendingMinutes?: number;
}

/** The tally's counts not yet written, by minute, and the write under way. */
export interface UsageTallyState {
  readonly store: UsageWriter;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly maxOrganizations: number;
  readonly maxPendingMinutes: number;
  minutes: Map<number, MinuteTally>;
  /** The minute `current` counts, -1 once `minutes` has changed under it. */
  currentMinute: number;
  current: MinuteTally;
  /** Calls past the per-minute bound of organizations since the last write. */
  dropped: number;
  writing: Promise<void> | undefined;
}

export function createUsageTallyState(
  config: UsageTallyConfig,
  deps: { store: UsageWriter; logger: Logger; clock: Clock },
): UsageTallyState {
  return {
    store: deps.store,
    logger: deps.logger,
    clock: deps.clock,
    maxOrganizations: config.maxOrganizationsPerMinute ?? 100_000,
    maxPendingMinutes: config.maxPendingMinutes ?? 60,
    minutes: new Map(),
    currentMinute: -1,
    current: new Map(),
    dropped: 0,
    writing: undefined,
  };
}
