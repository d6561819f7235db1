import type { Clock } from "@hub/clock";
import type { RetentionDeleted, RetentionStore } from "@hub/store";
import type { Logger } from "pino";

/** How long each kind of row is kept (docs/operations.md, "Retention"). */
export interface RetentionPeriods {
  /** A session is deleted this long after it ended (its absolute end, or its last request). */
  expiredSessionsMs: number;
  /** An invitation is deleted this long after it expired, used or not. */
  expiredInvitesMs: number;
  /** Per-minute usage rows older than this are deleted. */
  usageMinutesMs: number;
  /** Audit entries older than this are deleted. */
  auditMs: number;
}

export interface RetentionJob {
  /** Runs when the last run is `intervalMs` old (the reconciler leader calls it every tick). */
  runIfDue(): Promise<RetentionDeleted | undefined>;
  /** One run now: one batch of each kind. Never throws: a failure is logged and retried at the next run. */
  run(): Promise<RetentionDeleted | undefined>;
}

/**
 * The one job that deletes rows past retention. It runs only where the reconciler's lease is held, so
 * one replica deletes at a time; each run deletes at most `batchSize` rows of each kind and runs again
 * at once while a kind still had a full batch (a backlog is worked off within a few ticks).
 */
export function createRetentionJob(deps: {
  store: RetentionStore;
  periods: RetentionPeriods;
  clock: Clock;
  logger: Logger;
  intervalMs?: number;
  batchSize?: number;
}): RetentionJob {
  const intervalMs = deps.intervalMs ?? 60_000;
  const batchSize = deps.batchSize ?? 1000;
  let lastRunMs = Number.NEGATIVE_INFINITY;
  let backlog = false;

  const run = async (): Promise<RetentionDeleted | undefined> => {
    const nowMs = deps.clock.now();
    lastRunMs = nowMs;
    const { periods } = deps;
    try {
      const deleted = await deps.store.deletePastRetention(
        {
          sessionsEndedBefore: new Date(nowMs - periods.expiredSessionsMs),
          invitesExpiredBefore: new Date(nowMs - periods.expiredInvitesMs),
          usageMinutesBefore: new Date(nowMs - periods.usageMinutesMs),
          auditBefore: new Date(nowMs - periods.auditMs),
        },
        batchSize,
      );
      backlog = Object.values(deleted).some((count) => count >= batchSize);
      if (Object.values(deleted).some((count) => count > 0))
        deps.logger.info({ deleted }, "retention: deleted rows past retention");
      return deleted;
    } catch (error) {
      deps.logger.warn(
        { error: error instanceof Error ? error.message : String(error) },
        "retention: could not delete rows past retention",
      );
      return undefined;
    }
  };

  return {
    run,
    async runIfDue() {
      if (!backlog && deps.clock.now() - lastRunMs < intervalMs) return undefined;
      return run();
    },
  };
}
