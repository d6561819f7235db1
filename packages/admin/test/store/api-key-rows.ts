import type { SqlExecutor } from "@hub/store";

/** Every stored column of an organization's API keys, as the driver returns them. */
export function readApiKeyRows(sql: SqlExecutor, orgId: string): Promise<Array<Record<string, unknown>>> {
  return sql.query("SELECT * FROM api_keys WHERE org_id = $1", [orgId]);
}
