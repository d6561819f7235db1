import type { SqlClient } from "./sql-client.js";
import { requiredRow } from "./required-row.js";

/** Where an admin action came from. */
export type AuditSource = "cli" | "dashboard";

export interface AuditEntryInput {
  at: Date;
  /** Who: the dashboard account's email, or the CLI's user. */
  actor: string;
  actorAccountId: string | null;
  source: AuditSource;
  action: string;
  orgId: string | null;
  target: string | null;
  detail: Record<string, unknown>;
}

export interface AuditEntryRecord extends AuditEntryInput {
  /** Increasing with every entry; the listing's cursor. */
  id: string;
}

export interface AuditStore {
  appendAuditEntry(entry: AuditEntryInput): Promise<AuditEntryRecord>;
  /** Newest first; beforeId continues a listing after its last entry. */
  listAuditEntries(page: { limit: number; beforeId?: string; orgId?: string }): Promise<AuditEntryRecord[]>;
}

interface AuditRow {
  id: string;
  at: Date;
  actor: string;
  actor_account_id: string | null;
  source: AuditSource;
  action: string;
  org_id: string | null;
  target: string | null;
  detail: Record<string, unknown>;
}

const AUDIT_COLUMNS = "id::text AS id, at, actor, actor_account_id, source, action, org_id, target, detail";

function toEntry(row: AuditRow): AuditEntryRecord {
  return {
    id: row.id,
    at: row.at,
    actor: row.actor,
    actorAccountId: row.actor_account_id,
    source: row.source,
    action: row.action,
    orgId: row.org_id,
    target: row.target,
    detail: typeof row.detail === "string" ? (JSON.parse(row.detail) as Record<string, unknown>) : row.detail,
  };
}

/** The admin audit log: append and list, nothing else (entries are never changed). */
export function createAuditStore(sql: SqlClient): AuditStore {
  return {
    async appendAuditEntry(entry) {
      const [row] = await sql.query<AuditRow>(
        `INSERT INTO audit_log (at, actor, actor_account_id, source, action, org_id, target, detail)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
         RETURNING ${AUDIT_COLUMNS}`,
        [
          entry.at.toISOString(),
          entry.actor,
          entry.actorAccountId,
          entry.source,
          entry.action,
          entry.orgId,
          entry.target,
          JSON.stringify(entry.detail),
        ],
      );
      return toEntry(requiredRow(row, "INSERT INTO audit_log"));
    },

    async listAuditEntries({ limit, beforeId, orgId }) {
      const rows = await sql.query<AuditRow>(
        `SELECT ${AUDIT_COLUMNS} FROM audit_log
         WHERE ($2::bigint IS NULL OR id < $2::bigint) AND ($3::text IS NULL OR org_id = $3)
         ORDER BY audit_log.id DESC
         LIMIT $1`,
        [limit, beforeId ?? null, orgId ?? null],
      );
      return rows.map(toEntry);
    },
  };
}
