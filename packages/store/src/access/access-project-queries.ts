import { requiredRow } from "../required-row.js";
import type { SqlClient } from "../sql-client.js";
import type { AccessStore } from "./access-records.js";
import type { ProjectRecord } from "./access-records.js";
import { PROJECT_SELECT, type ProjectRow, toProject } from "./access-rows.js";

export async function readProject(sql: SqlClient, projectId: string): Promise<ProjectRecord | undefined> {
  const [row] = await sql.query<ProjectRow>(`${PROJECT_SELECT} WHERE p.id = $1 GROUP BY p.id`, [projectId]);
  return row ? toProject(row) : undefined;
}

/** The projects: one per organization, read by id, and read by the gateway by their public id. */
export function accessProjectQueries(
  sql: SqlClient,
): Pick<AccessStore, "createProject" | "getProject" | "findProjectByPublicId"> {
  return {
    async createProject({ projectId, orgId, origins, at }) {
      const inserted = await sql.transaction(async (tx) => {
        const rows = await tx.query<{ id: string }>(
          `INSERT INTO projects (id, org_id, created_at)
           SELECT $1, id, $3 FROM organizations WHERE id = $2
           ON CONFLICT ON CONSTRAINT projects_one_per_organization DO NOTHING
           RETURNING id`,
          [projectId, orgId, at.toISOString()],
        );
        if (rows.length === 0) return false;
        await tx.query(
          `INSERT INTO project_origins (project_id, origin) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`,
          [projectId, origins],
        );
        return true;
      });
      if (inserted)
        return {
          created: true,
          project: requiredRow(await readProject(sql, projectId), "the project just inserted"),
        };
      const [existing] = await sql.query<{ id: string }>("SELECT id FROM projects WHERE org_id = $1", [
        orgId,
      ]);
      if (existing) return { created: false, reason: "organization-has-project", projectId: existing.id };
      return { created: false, reason: "organization-not-found" };
    },

    getProject: (projectId) => readProject(sql, projectId),

    async findProjectByPublicId(projectId) {
      const project = await readProject(sql, projectId);
      // A disabled organization's project id reads as unknown.
      const disabled =
        project &&
        (
          await sql.query<{ id: string }>(
            "SELECT id FROM organizations WHERE id = $1 AND disabled_at IS NOT NULL",
            [project.orgId],
          )
        ).length > 0;
      return project && !disabled
        ? { projectId: project.projectId, orgId: project.orgId, allowedOrigins: project.allowedOrigins }
        : undefined;
    },
  };
}
