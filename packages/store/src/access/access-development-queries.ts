import type { SqlClient } from "../sql-client.js";
import type { AccessStore, DevelopmentAccessRecord } from "./access-records.js";

class LostDevelopmentRace extends Error {}

async function readDevelopmentAccess(sql: SqlClient): Promise<DevelopmentAccessRecord | undefined> {
  const [row] = await sql.query<{ org_id: string; project_id: string }>(
    `SELECT d.org_id, p.id AS project_id FROM development_access d JOIN projects p ON p.org_id = d.org_id
     WHERE d.id = 1`,
  );
  return row ? { orgId: row.org_id, projectId: row.project_id } : undefined;
}

/** The development organization and its project: claimed once, by whichever start is first. */
export function accessDevelopmentQueries(
  sql: SqlClient,
): Pick<AccessStore, "findDevelopmentAccess" | "claimDevelopmentAccess"> {
  return {
    findDevelopmentAccess: () => readDevelopmentAccess(sql),

    async claimDevelopmentAccess({ orgId, name, projectId, origins, at }) {
      try {
        await sql.transaction(async (tx) => {
          await tx.query("INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3)", [
            orgId,
            name,
            at.toISOString(),
          ]);
          const claimed = await tx.query(
            "INSERT INTO development_access (id, org_id) VALUES (1, $1) ON CONFLICT (id) DO NOTHING RETURNING id",
            [orgId],
          );
          if (claimed.length === 0) throw new LostDevelopmentRace();
          await tx.query("INSERT INTO projects (id, org_id, created_at) VALUES ($1, $2, $3)", [
            projectId,
            orgId,
            at.toISOString(),
          ]);
          await tx.query(
            "INSERT INTO project_origins (project_id, origin) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING",
            [projectId, origins],
          );
        });
        return { orgId, projectId, created: true };
      } catch (error) {
        if (!(error instanceof LostDevelopmentRace)) throw error;
        const existing = await readDevelopmentAccess(sql);
        if (!existing) throw new Error("development access was claimed but cannot be read back");
        return { ...existing, created: false };
      }
    },
  };
}
