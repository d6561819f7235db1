import type { AuditSource, AuditStore } from "@hub/store";
import { adminLimits } from "./admin-limits.js";
import { AdminRefusal } from "./admin-refusal.js";

/** One admin action as the audit log shows it. */
export interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  /** The dashboard account, when the action came from the dashboard. */
  actorAccountId: string | null;
  source: AuditSource;
  action: string;
  orgId: string | null;
  target: string | null;
  detail: Record<string, unknown>;
}

/** One page of the audit log, newest first. */
export interface AuditLogPage {
  entries: AuditEntry[];
  /** Pass as `after` for the next (older) page; null on the last page. */
  next: string | null;
}

export interface AuditAdmin {
  listAuditLog(input?: { limit?: number; after?: string; orgId?: string }): Promise<AuditLogPage>;
}

const CURSOR = /^[1-9][0-9]{0,18}$/;

export function createAuditAdmin(deps: { audit: AuditStore }): AuditAdmin {
  return {
    async listAuditLog({ limit = 50, after, orgId } = {}) {
      if (!Number.isInteger(limit) || limit < 1 || limit > adminLimits.maxAuditPage) {
        throw new AdminRefusal("invalid-argument", `a page holds 1 to ${adminLimits.maxAuditPage} entries`);
      }
      if (after !== undefined && !CURSOR.test(after)) {
        throw new AdminRefusal("invalid-argument", `${after} is not an audit log cursor`);
      }
      const records = await deps.audit.listAuditEntries({
        limit: limit + 1,
        ...(after !== undefined ? { beforeId: after } : {}),
        ...(orgId !== undefined ? { orgId } : {}),
      });
      const entries = records.slice(0, limit).map((record) => ({
        ...record,
        at: record.at.toISOString(),
      }));
      return { entries, next: records.length > limit ? (entries.at(-1)?.id ?? null) : null };
    },
  };
}
