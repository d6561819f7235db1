import type { SqlExecutor } from "@hub/store";

/** Every stored column of an organization's audit entries, as the driver returns them. */
export function readAuditRows(sql: SqlExecutor, orgId: string): Promise<Array<Record<string, unknown>>> {
  return sql.query("SELECT * FROM audit_log WHERE org_id = $1", [orgId]);
}
