import type { ApiKeyRecord, OrganizationRecord, ProjectRecord } from "./access-records.js";

export interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
  project_id: string | null;
  disabled_at: Date | null;
  require_two_factor: boolean;
}

export interface ProjectRow {
  id: string;
  org_id: string;
  created_at: Date;
  origins: string[];
}

export interface ApiKeyRow {
  id: string;
  org_id: string;
  label: string | null;
  display_prefix: string;
  created_at: Date;
  expires_at: Date | null;
  revoked_at: Date | null;
  disabled_at: Date | null;
  last_used_at: Date | null;
}

export const ORGANIZATION_COLUMNS = `o.id, o.name, o.created_at, p.id AS project_id, o.disabled_at, o.require_two_factor`;
export const PROJECT_SELECT = `SELECT p.id, p.org_id, p.created_at,
    coalesce(array_agg(po.origin ORDER BY po.origin) FILTER (WHERE po.origin IS NOT NULL), '{}') AS origins
  FROM projects p LEFT JOIN project_origins po ON po.project_id = p.id`;
export const KEY_COLUMNS =
  "id, org_id, label, display_prefix, created_at, expires_at, revoked_at, disabled_at, last_used_at";

export function toOrganization(row: OrganizationRow): OrganizationRecord {
  return {
    orgId: row.id,
    name: row.name,
    createdAt: row.created_at,
    projectId: row.project_id,
    disabledAt: row.disabled_at ?? null,
    requireTwoFactor: row.require_two_factor === true,
  };
}

export function toProject(row: ProjectRow): ProjectRecord {
  return { projectId: row.id, orgId: row.org_id, createdAt: row.created_at, allowedOrigins: row.origins };
}

export function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    keyId: row.id,
    orgId: row.org_id,
    label: row.label,
    displayPrefix: row.display_prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    disabledAt: row.disabled_at ?? null,
    lastUsedAt: row.last_used_at,
  };
}
