import type { UpstreamOrderStatus } from "@hub/contract";

/** One followed order in memory: who may read it and the status last served. */
export interface ProjectionEntry {
  organization: string;
  subject: string;
  status: UpstreamOrderStatus;
  /**
   * Until when it is served without a refresh, worked out once at its refresh (this replica's, or one
   * another replica stored) instead of at every read.
   */
  servedUntilMs: number;
  lastServedAtMs: number;
}

export interface StatusProjection {
  get(hubOrderId: string): ProjectionEntry | undefined;
  /** Stores an entry; false when the table is full and no idle entry can make room (EIN0081). */
  put(hubOrderId: string, entry: ProjectionEntry, nowMs: number): boolean;
  /** True when a new order could be added now. */
  hasRoom(hubOrderId: string, nowMs: number): boolean;
  readonly size: number;
}

/**
 * The bounded table of followed orders. When it is full, an entry nobody read for idleEvictMs makes
 * room (the persisted view survives it); with none, adding an order is refused.
 */
export function createStatusProjection(config: { capacity: number; idleEvictMs: number }): StatusProjection {
  const entries = new Map<string, ProjectionEntry>();

  function makeRoom(nowMs: number): boolean {
    if (entries.size < config.capacity) return true;
    for (const [id, entry] of entries) {
      if (nowMs - entry.lastServedAtMs >= config.idleEvictMs) {
        entries.delete(id);
        return true;
      }
    }
    return false;
  }

  return {
    get: (hubOrderId) => entries.get(hubOrderId),
    hasRoom(hubOrderId, nowMs) {
      return entries.has(hubOrderId) || makeRoom(nowMs);
    },
    put(hubOrderId, entry, nowMs) {
      if (!entries.has(hubOrderId) && !makeRoom(nowMs)) return false;
      entries.set(hubOrderId, entry);
      return true;
    },
    get size() {
      return entries.size;
    },
  };
}
