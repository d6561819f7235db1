import type { SqlClient } from "../sql-client.js";
import type { AccessStore } from "./access-records.js";
import { readProject } from "./access-project-queries.js";

/** A project's allowed origins: replaced whole, or one added or removed. */
export function accessProjectOriginQueries(
  sql: SqlClient,
): Pick<AccessStore, "setProjectOrigins" | "addProjectOrigin" | "removeProjectOrigin"> {
  return {
    async setProjectOrigins(projectId, origins) {
      const found = await sql.transaction(async (tx) => {
        // The row lock orders concurrent replacements of one project's list.
        const rows = await tx.query("SELECT id FROM projects WHERE id = $1 FOR UPDATE", [projectId]);
        if (rows.length === 0) return false;
        await tx.query(
          "DELETE FROM project_origins WHERE project_id = $1 AND NOT (origin = ANY ($2::text[]))",
          [projectId, origins],
        );
        await tx.query(
          `INSERT INTO project_origins (project_id, origin) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
          [projectId, origins],
        );
        return true;
      });
      return found ? readProject(sql, projectId) : undefined;
    },

    async addProjectOrigin(projectId, origin) {
      const rows = await sql.query(
        `INSERT INTO project_origins (project_id, origin) SELECT id, $2 FROM projects WHERE id = $1
         ON CONFLICT DO NOTHING RETURNING project_id`,
        [projectId, origin],
      );
      if (rows.length > 0) return true;
      return (await sql.query("SELECT 1 FROM projects WHERE id = $1", [projectId])).length > 0;
    },

    async removeProjectOrigin(projectId, origin) {
      const rows = await sql.query(
        "DELETE FROM project_origins WHERE project_id = $1 AND origin = $2 RETURNING project_id",
        [projectId, origin],
      );
      if (rows.length > 0) return true;
      return (await sql.query("SELECT 1 FROM projects WHERE id = $1", [projectId])).length > 0;
    },
  };
}
