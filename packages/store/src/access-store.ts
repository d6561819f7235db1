import type { SqlClient } from "./sql-client.js";

export interface OrganizationRecord {
  orgId: string;
  name: string;
  createdAt: Date;
  /** The organization's project, when it has one. */
  projectId: string | null;
}

export interface ProjectRecord {
  projectId: string;
  orgId: string;
  createdAt: Date;
  allowedOrigins: string[];
}

export interface ApiKeyRecord {
  keyId: string;
  orgId: string;
  /** A person's name for the key; null when none was given. */
  label: string | null;
  displayPrefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** What the gateway needs to decide on a key: the caller compares the dates with its clock. */
export interface KeyLookup {
  keyId: string;
  orgId: string;
  expiresAt: Date | null;
  revokedAt: Date | null;
}

export interface ProjectLookup {
  projectId: string;
  orgId: string;
  allowedOrigins: string[];
}

export type CreateProjectOutcome =
  | { created: true; project: ProjectRecord }
  | { created: false; reason: "organization-not-found" }
  | { created: false; reason: "organization-has-project"; projectId: string };

export interface DevelopmentAccessRecord {
  orgId: string;
  projectId: string;
}

export interface AccessStore {
  createOrganization(input: { orgId: string; name: string; at: Date }): Promise<OrganizationRecord>;
  getOrganization(orgId: string): Promise<OrganizationRecord | undefined>;
  /** One page in creation order, after the given organization id. */
  listOrganizations(page: { limit: number; afterOrgId?: string }): Promise<OrganizationRecord[]>;
  createProject(input: {
    projectId: string;
    orgId: string;
    origins: readonly string[];
    at: Date;
  }): Promise<CreateProjectOutcome>;
  getProject(projectId: string): Promise<ProjectRecord | undefined>;
  /** Replaces the allowed origins; undefined when the project does not exist. */
  setProjectOrigins(projectId: string, origins: readonly string[]): Promise<ProjectRecord | undefined>;
  /** Adds one origin if missing; false when the project does not exist. */
  addProjectOrigin(projectId: string, origin: string): Promise<boolean>;
  /** Removes one origin if present; false when the project does not exist. */
  removeProjectOrigin(projectId: string, origin: string): Promise<boolean>;
  /** undefined when the organization does not exist. */
  insertApiKey(input: {
    keyId: string;
    orgId: string;
    label?: string | null;
    keyHash: string;
    displayPrefix: string;
    createdAt: Date;
    expiresAt: Date | null;
  }): Promise<ApiKeyRecord | undefined>;
  /** Sets revoked_at once; a second revoke keeps the first time. undefined when the key does not exist. */
  revokeApiKey(keyId: string, at: Date): Promise<ApiKeyRecord | undefined>;
  getApiKey(keyId: string): Promise<ApiKeyRecord | undefined>;
  listApiKeys(orgId: string): Promise<ApiKeyRecord[]>;
  findKeyByHash(keyHash: string): Promise<KeyLookup | undefined>;
  findProjectByPublicId(projectId: string): Promise<ProjectLookup | undefined>;
  /** One statement for many keys; never moves last_used_at backwards. */
  markKeysUsed(keyIds: readonly string[], at: Date): Promise<void>;
  findDevelopmentAccess(): Promise<DevelopmentAccessRecord | undefined>;
  /**
   * Creates the development organization and its project, unless one exists; the unique row decides
   * a race between two first starts, and the loser's rows are rolled back.
   */
  claimDevelopmentAccess(input: {
    orgId: string;
    name: string;
    projectId: string;
    origins: readonly string[];
    at: Date;
  }): Promise<DevelopmentAccessRecord & { created: boolean }>;
}

interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
  project_id: string | null;
}

interface ProjectRow {
  id: string;
  org_id: string;
  created_at: Date;
  origins: string[];
}

interface ApiKeyRow {
  id: string;
  org_id: string;
  label: string | null;
  display_prefix: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
}

const ORGANIZATION_COLUMNS = `o.id, o.name, o.created_at, p.id AS project_id`;
const PROJECT_SELECT = `SELECT p.id, p.org_id, p.created_at,
    coalesce(array_agg(po.origin ORDER BY po.origin) FILTER (WHERE po.origin IS NOT NULL), '{}') AS origins
  FROM projects p LEFT JOIN project_origins po ON po.project_id = p.id`;
const KEY_COLUMNS = "id, org_id, label, display_prefix, created_at, expires_at, revoked_at, last_used_at";

function toOrganization(row: OrganizationRow): OrganizationRecord {
  return { orgId: row.id, name: row.name, createdAt: row.created_at, projectId: row.project_id };
}

function toProject(row: ProjectRow): ProjectRecord {
  return { projectId: row.id, orgId: row.org_id, createdAt: row.created_at, allowedOrigins: row.origins };
}

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    keyId: row.id,
    orgId: row.org_id,
    label: row.label,
    displayPrefix: row.display_prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

class LostDevelopmentRace extends Error {}

/** Organizations, projects with their allowed origins, and API keys (stored as SHA-256 only). */
export function createAccessStore(sql: SqlClient): AccessStore {
  const getProject = async (projectId: string): Promise<ProjectRecord | undefined> => {
    const [row] = await sql.query<ProjectRow>(`${PROJECT_SELECT} WHERE p.id = $1 GROUP BY p.id`, [projectId]);
    return row ? toProject(row) : undefined;
  };

  const findDevelopmentAccess = async (): Promise<DevelopmentAccessRecord | undefined> => {
    const [row] = await sql.query<{ org_id: string; project_id: string }>(
      `SELECT d.org_id, p.id AS project_id FROM development_access d JOIN projects p ON p.org_id = d.org_id
       WHERE d.id = 1`,
    );
    return row ? { orgId: row.org_id, projectId: row.project_id } : undefined;
  };

  return {
    async createOrganization({ orgId, name, at }) {
      const [row] = await sql.query<OrganizationRow>(
        `INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, $3)
         RETURNING id, name, created_at, NULL::text AS project_id`,
        [orgId, name, at.toISOString()],
      );
      return toOrganization(row!);
    },

    async getOrganization(orgId) {
      const [row] = await sql.query<OrganizationRow>(
        `SELECT ${ORGANIZATION_COLUMNS} FROM organizations o LEFT JOIN projects p ON p.org_id = o.id WHERE o.id = $1`,
        [orgId],
      );
      return row ? toOrganization(row) : undefined;
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
      if (inserted) return { created: true, project: (await getProject(projectId))! };
      const [existing] = await sql.query<{ id: string }>("SELECT id FROM projects WHERE org_id = $1", [
        orgId,
      ]);
      if (existing) return { created: false, reason: "organization-has-project", projectId: existing.id };
      return { created: false, reason: "organization-not-found" };
    },

    getProject,

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
      return found ? getProject(projectId) : undefined;
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

    async insertApiKey({ keyId, orgId, label, keyHash, displayPrefix, createdAt, expiresAt }) {
      const [row] = await sql.query<ApiKeyRow>(
        `INSERT INTO api_keys (id, org_id, key_hash, display_prefix, created_at, expires_at, label)
         SELECT $1, id, $3, $4, $5, $6, $7 FROM organizations WHERE id = $2
         RETURNING ${KEY_COLUMNS}`,
        [
          keyId,
          orgId,
          keyHash,
          displayPrefix,
          createdAt.toISOString(),
          expiresAt?.toISOString() ?? null,
          label ?? null,
        ],
      );
      return row ? toApiKey(row) : undefined;
    },

    async revokeApiKey(keyId, at) {
      const [row] = await sql.query<ApiKeyRow>(
        `UPDATE api_keys SET revoked_at = coalesce(revoked_at, $2) WHERE id = $1 RETURNING ${KEY_COLUMNS}`,
        [keyId, at.toISOString()],
      );
      return row ? toApiKey(row) : undefined;
    },

    async getApiKey(keyId) {
      const [row] = await sql.query<ApiKeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, [keyId]);
      return row ? toApiKey(row) : undefined;
    },

    async listApiKeys(orgId) {
      const rows = await sql.query<ApiKeyRow>(
        `SELECT ${KEY_COLUMNS} FROM api_keys WHERE org_id = $1 ORDER BY created_at, id`,
        [orgId],
      );
      return rows.map(toApiKey);
    },

    async findKeyByHash(keyHash) {
      const [row] = await sql.query<Pick<ApiKeyRow, "id" | "org_id" | "expires_at" | "revoked_at">>(
        "SELECT id, org_id, expires_at, revoked_at FROM api_keys WHERE key_hash = $1",
        [keyHash],
      );
      return row
        ? { keyId: row.id, orgId: row.org_id, expiresAt: row.expires_at, revokedAt: row.revoked_at }
        : undefined;
    },

    async findProjectByPublicId(projectId) {
      const project = await getProject(projectId);
      return project
        ? { projectId: project.projectId, orgId: project.orgId, allowedOrigins: project.allowedOrigins }
        : undefined;
    },

    async markKeysUsed(keyIds, at) {
      if (keyIds.length === 0) return;
      await sql.query(
        `UPDATE api_keys SET last_used_at = $2
         WHERE id = ANY ($1::text[]) AND (last_used_at IS NULL OR last_used_at < $2)`,
        [keyIds, at.toISOString()],
      );
    },

    findDevelopmentAccess,

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
        const existing = await findDevelopmentAccess();
        if (!existing) throw new Error("development access was claimed but cannot be read back");
        return { ...existing, created: false };
      }
    },
  };
}
