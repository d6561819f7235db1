import type { ApiKeyRecord, OrganizationRecord, ProjectRecord } from "@hub/store";
import type { ApiKeyInfo, Organization, Project } from "../access-admin.js";
import { AdminRefusal } from "../admin-refusal.js";
import { apiKeyStatus } from "../api-key-status.js";

export function organizationOut(record: OrganizationRecord): Organization {
  return {
    orgId: record.orgId,
    name: record.name,
    createdAt: record.createdAt.toISOString(),
    projectId: record.projectId,
    disabledAt: record.disabledAt?.toISOString() ?? null,
    requireTwoFactor: record.requireTwoFactor,
  };
}

export function projectOut(record: ProjectRecord): Project {
  return {
    projectId: record.projectId,
    orgId: record.orgId,
    allowedOrigins: record.allowedOrigins,
    createdAt: record.createdAt.toISOString(),
  };
}

export function apiKeyInfo(record: ApiKeyRecord, now: Date): ApiKeyInfo {
  return {
    keyId: record.keyId,
    orgId: record.orgId,
    label: record.label,
    displayPrefix: record.displayPrefix,
    status: apiKeyStatus(record, now),
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
    disabledAt: record.disabledAt?.toISOString() ?? null,
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
  };
}

export const organizationNotFound = (orgId: string) =>
  new AdminRefusal("organization-not-found", `organization ${orgId} does not exist`);
export const projectNotFound = (projectId: string) =>
  new AdminRefusal("project-not-found", `project ${projectId} does not exist`);
