import { requiredRow } from "../required-row.js";
import type { SqlClient } from "../sql-client.js";
import type { AccessStore } from "./access-records.js";
import { ORGANIZATION_COLUMNS, type OrganizationRow, toOrganization } from "./access-rows.js";

/** The organizations: made, read, listed a page at a time, and disabled or enabled. */
export function accessOrganizationQueries(
  sql: SqlClient,
): Pick<
  AccessStore,
  "createOrganization" | "getOrganization" | "setOrganizationDisabled" | "listOrganizations"
> {
  return {
    async createOrganization({ orgId, name, at }) {
      const [row] = await sql.query<OrganizationRow>(
        `INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3)
         RETURNING id, name, created_at, NULL::text AS project_id`,
        [orgId, name, at.toISOString()],
      );
      return toOrganization(requiredRow(row, "INSERT INTO organizations"));
    },

    async getOrganization(orgId) {
      const [row] = await sql.query<OrganizationRow>(
        `SELECT ${ORGANIZATION_COLUMNS} FROM organizations o LEFT JOIN projects p ON p.org_id = o.id WHERE o.id = $1`,
        [orgId],
      );
      return row ? toOrganization(row) : undefined;
    },

    async setOrganizationDisabled(orgId, at) {
      const rows = await sql.query<{ id: string }>(
        "UPDATE organizations SET disabled_at = $2 WHERE id = $1 RETURNING id",
        [orgId, at?.toISOString() ?? null],
      );
      return rows.length === 1;
    },

    async listOrganizations({ limit, afterOrgId }) {
      const rows = await sql.query<OrganizationRow>(
        `SELECT ${ORGANIZATION_COLUMNS} FROM organizations o LEFT JOIN projects p ON p.org_id = o.id
         WHERE $2::text IS NULL
            OR (o.created_at, o.id) > (SELECT created_at, id FROM organizations WHERE id = $2)
         ORDER BY o.created_at, o.id
         LIMIT $1`,
        [limit, afterOrgId ?? null],
      );
      return rows.map(toOrganization);
    },
  };
}
