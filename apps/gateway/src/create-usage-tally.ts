import type { Clock } from "@hub/clock";
import type { Logger } from "pino";

/** How a call identified its organization. */
export type UsageCredentialKind = "api_key" | "project_id";

/** What the tally writes to (@hub/store's UsageStore has it): adds counts to the stored ones. */
export interface UsageWriter {
  addUsage(
    counts: readonly {
      orgId: string;
      minute: Date;
      credentialKind: UsageCredentialKind;
      code: string;
      count: number;
    }[],
  ): Promise<void>;
}

/**
 * Calls per organization, minute, credential kind and answer code ('' for a success), summed in memory
 * and written once a minute. A failed write keeps the counts for the next one; requests never wait.
 */
export interface UsageTally {
  count(orgId: string, kind: UsageCredentialKind, code: string): void;
  /** Writes what was counted so far; one write at a time. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

export interface UsageTallyConfig {
  readonly flushMs?: number;
  /** Organizations counted per minute; calls of further ones in that minute are dropped (and logged). */
  readonly maxOrganizationsPerMinute?: number;
  /** Minutes kept while writes fail; the oldest are dropped (and logged) beyond it. */
  readonly maxPendingMinutes?: number;
}

interface KindTally {
  successes: number;
  refusals: Map<string, number> | undefined;
}

interface OrganizationTally {
  readonly apiKey: KindTally;
  readonly projectId: KindTally;
}

type MinuteTally = Map<string, OrganizationTally>;

const MINUTE_MS = 60_000;

export function createUsageTally(
  config: UsageTallyConfig,
  deps: { store: UsageWriter; logger: Logger; clock: Clock },
): UsageTally {
  const { store, logger, clock } = deps;
  const maxOrganizations = config.maxOrganizationsPerMinute ?? 100_000;
  const maxPendingMinutes = config.maxPendingMinutes ?? 60;
  let minutes = new Map<number, MinuteTally>();
  let currentMinute = -1;
  let current: MinuteTally = new Map();
  let dropped = 0;
  let writing: Promise<void> | undefined;

  function organizationIn(minute: number, orgId: string): OrganizationTally | undefined {
    if (minute !== currentMinute) {
      let tally = minutes.get(minute);
      if (tally === undefined) {
        tally = new Map();
        minutes.set(minute, tally);
      }
      current = tally;
      currentMinute = minute;
    }
    let organization = current.get(orgId);
    if (organization === undefined) {
      if (current.size >= maxOrganizations) return undefined;
      organization = {
        apiKey: { successes: 0, refusals: undefined },
        projectId: { successes: 0, refusals: undefined },
      };
      current.set(orgId, organization);
    }
    return organization;
  }

  function add(minute: number, orgId: string, kind: UsageCredentialKind, code: string, count: number): void {
    const organization = organizationIn(minute, orgId);
    if (organization === undefined) {
      dropped += count;
      return;
    }
    const tally = kind === "api_key" ? organization.apiKey : organization.projectId;
    if (code === "") tally.successes += count;
    else {
      tally.refusals ??= new Map();
      tally.refusals.set(code, (tally.refusals.get(code) ?? 0) + count);
    }
  }

  function rowsOf(batch: Map<number, MinuteTally>) {
    const rows = [];
    for (const [minute, organizations] of batch) {
      const at = new Date(minute * MINUTE_MS);
      for (const [orgId, organization] of organizations) {
        for (const [credentialKind, tally] of [
          ["api_key", organization.apiKey],
          ["project_id", organization.projectId],
        ] as const) {
          if (tally.successes > 0) {
            rows.push({ orgId, minute: at, credentialKind, code: "", count: tally.successes });
          }
          for (const [code, count] of tally.refusals ?? []) {
            rows.push({ orgId, minute: at, credentialKind, code, count });
          }
        }
      }
    }
    return rows;
  }

  async function write(): Promise<void> {
    if (dropped > 0) {
      logger.warn(
        { calls: dropped, maxOrganizations },
        "usage of calls past the per-minute bound not counted",
      );
      dropped = 0;
    }
    const batch = minutes;
    minutes = new Map();
    currentMinute = -1;
    const rows = rowsOf(batch);
    if (rows.length === 0) return;
    try {
      await store.addUsage(rows);
    } catch (error) {
      logger.warn(
        { err: error, rows: rows.length },
        "could not write usage counts; retrying with the next flush",
      );
      for (const row of rows) {
        add(row.minute.getTime() / MINUTE_MS, row.orgId, row.credentialKind, row.code, row.count);
      }
      const excess = minutes.size - maxPendingMinutes;
      if (excess > 0) {
        const oldest = [...minutes.keys()].sort((a, b) => a - b).slice(0, excess);
        for (const minute of oldest) minutes.delete(minute);
        currentMinute = -1;
        logger.warn({ minutes: excess }, "usage counts of the oldest unwritten minutes dropped");
      }
    }
  }

  function flush(): Promise<void> {
    writing ??= write().finally(() => {
      writing = undefined;
    });
    return writing;
  }

  const timer = setInterval(() => void flush(), config.flushMs ?? MINUTE_MS);
  timer.unref();

  return {
    count(orgId, kind, code) {
      add(Math.floor(clock.now() / MINUTE_MS), orgId, kind, code, 1);
    },
    flush,
    async close() {
      clearInterval(timer);
      await writing;
      await flush();
    },
  };
}
