import {
  apiKeyDisplayPrefix,
  generateApiKey,
  generateProjectId,
  hashApiKey,
  isApiKeyFormat,
} from "@hub/contract";
import type { AccessStore, ApiKeyRecord, OrganizationRecord, ProjectRecord } from "@hub/store";
import { AccessError } from "./access-error.js";
import { type ApiKeyStatus, apiKeyStatus } from "./api-key-status.js";
import { normaliseOrigin } from "./normalise-origin.js";
import { newResourceId } from "./resource-id.js";

export interface Organization {
  orgId: string;
  name: string;
  createdAt: string;
  projectId: string | null;
}

export interface Project {
  projectId: string;
  orgId: string;
  allowedOrigins: string[];
  createdAt: string;
}

/** A key as listings show it: never the plaintext, never the hash. */
export interface ApiKeyInfo {
  keyId: string;
  orgId: string;
  displayPrefix: string;
  status: ApiKeyStatus;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** The one answer that carries a key's plaintext; it is not stored and cannot be shown again. */
export interface CreatedApiKey {
  keyId: string;
  orgId: string;
  key: string;
  displayPrefix: string;
  createdAt: string;
  expiresAt: string | null;
}

export interface DevelopmentAccess {
  orgId: string;
  projectId: string;
  allowedOrigin: string;
  keyId: string;
  apiKey: string;
  /** False when the previous key was still valid and is returned as is. */
  keyCreated: boolean;
}

export interface AccessService {
  createOrganization(name: string): Promise<Organization>;
  getOrganization(orgId: string): Promise<Organization | undefined>;
  listOrganizations(page?: { limit?: number; after?: string }): Promise<{
    organizations: Organization[];
    /** Pass as `after` for the next page; null on the last page. */
    next: string | null;
  }>;
  createProject(orgId: string, origins: readonly string[]): Promise<Project>;
  getProject(projectId: string): Promise<Project | undefined>;
  setProjectOrigins(projectId: string, origins: readonly string[]): Promise<Project>;
  createApiKey(orgId: string, options?: { expiresInSeconds?: number }): Promise<CreatedApiKey>;
  revokeApiKey(keyId: string): Promise<ApiKeyInfo>;
  listApiKeys(orgId: string): Promise<ApiKeyInfo[]>;
  /**
   * The development organization, its project (with allowedOrigin among its origins) and a working
   * key. The same organization and project on every start; previousKey (the plaintext kept in
   * dev.json) is returned again while it is valid, otherwise a new key is made.
   */
  ensureDevelopmentAccess(input: { allowedOrigin: string; previousKey?: string }): Promise<DevelopmentAccess>;
}

export interface AccessServiceDeps {
  store: AccessStore;
  now?: () => Date;
}

const MAX_KEY_LIFETIME_SECONDS = 10 * 365 * 24 * 3600;
const MAX_PAGE = 500;
const DEVELOPMENT_ORGANIZATION_NAME = "Development";

function organizationOut(record: OrganizationRecord): Organization {
  return {
    orgId: record.orgId,
    name: record.name,
    createdAt: record.createdAt.toISOString(),
    projectId: record.projectId,
  };
}

function projectOut(record: ProjectRecord): Project {
  return {
    projectId: record.projectId,
    orgId: record.orgId,
    allowedOrigins: record.allowedOrigins,
    createdAt: record.createdAt.toISOString(),
  };
}

function normaliseOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.map(normaliseOrigin))];
}

/** Organizations, their project and keys: the rules behind the CLI and the dashboard. */
export function createAccessService(deps: AccessServiceDeps): AccessService {
  const { store } = deps;
  const now = deps.now ?? (() => new Date());

  const keyOut = (record: ApiKeyRecord): ApiKeyInfo => ({
    keyId: record.keyId,
    orgId: record.orgId,
    displayPrefix: record.displayPrefix,
    status: apiKeyStatus(record, now()),
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
  });

  const createApiKey = async (orgId: string, options: { expiresInSeconds?: number } = {}) => {
    const { expiresInSeconds } = options;
    if (
      expiresInSeconds !== undefined &&
      (!Number.isInteger(expiresInSeconds) ||
        expiresInSeconds < 1 ||
        expiresInSeconds > MAX_KEY_LIFETIME_SECONDS)
    ) {
      throw new AccessError(
        "invalid-argument",
        `a key's lifetime must be a whole number of seconds from 1 to ${MAX_KEY_LIFETIME_SECONDS} (10 years)`,
      );
    }
    const key = generateApiKey();
    const createdAt = now();
    const record = await store.insertApiKey({
      keyId: newResourceId("key_"),
      orgId,
      keyHash: hashApiKey(key),
      displayPrefix: apiKeyDisplayPrefix(key),
      createdAt,
      expiresAt:
        expiresInSeconds === undefined ? null : new Date(createdAt.getTime() + expiresInSeconds * 1000),
    });
    if (!record) throw new AccessError("organization-not-found", `organization ${orgId} does not exist`);
    return {
      keyId: record.keyId,
      orgId: record.orgId,
      key,
      displayPrefix: record.displayPrefix,
      createdAt: record.createdAt.toISOString(),
      expiresAt: record.expiresAt?.toISOString() ?? null,
    };
  };

  return {
    async createOrganization(name) {
      const trimmed = name.trim();
      if (trimmed.length < 1 || trimmed.length > 200) {
        throw new AccessError("invalid-argument", "an organization name must be 1 to 200 characters");
      }
      return organizationOut(
        await store.createOrganization({ orgId: newResourceId("org_"), name: trimmed, at: now() }),
      );
    },

    async getOrganization(orgId) {
      const record = await store.getOrganization(orgId);
      return record ? organizationOut(record) : undefined;
    },

    async listOrganizations(page = {}) {
      const limit = page.limit ?? 100;
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE) {
        throw new AccessError("invalid-argument", `a page holds 1 to ${MAX_PAGE} organizations`);
      }
      const records = await store.listOrganizations({
        limit: limit + 1,
        ...(page.after ? { afterOrgId: page.after } : {}),
      });
      const organizations = records.slice(0, limit).map(organizationOut);
      return { organizations, next: records.length > limit ? (organizations.at(-1)?.orgId ?? null) : null };
    },

    async createProject(orgId, origins) {
      const allowed = normaliseOrigins(origins);
      const outcome = await store.createProject({
        projectId: generateProjectId(),
        orgId,
        origins: allowed,
        at: now(),
      });
      if (outcome.created) return projectOut(outcome.project);
      if (outcome.reason === "organization-not-found") {
        throw new AccessError("organization-not-found", `organization ${orgId} does not exist`);
      }
      throw new AccessError(
        "organization-has-project",
        `organization ${orgId} already has project ${outcome.projectId} (one project per organization)`,
      );
    },

    async getProject(projectId) {
      const record = await store.getProject(projectId);
      return record ? projectOut(record) : undefined;
    },

    async setProjectOrigins(projectId, origins) {
      const allowed = normaliseOrigins(origins);
      const record = await store.setProjectOrigins(projectId, allowed);
      if (!record) throw new AccessError("project-not-found", `project ${projectId} does not exist`);
      return projectOut(record);
    },

    createApiKey,

    async revokeApiKey(keyId) {
      const record = await store.revokeApiKey(keyId, now());
      if (!record) throw new AccessError("key-not-found", `key ${keyId} does not exist`);
      return keyOut(record);
    },

    async listApiKeys(orgId) {
      const [organization, keys] = await Promise.all([
        store.getOrganization(orgId),
        store.listApiKeys(orgId),
      ]);
      if (!organization)
        throw new AccessError("organization-not-found", `organization ${orgId} does not exist`);
      return keys.map(keyOut);
    },

    async ensureDevelopmentAccess({ allowedOrigin, previousKey }) {
      const origin = normaliseOrigin(allowedOrigin);
      let access = await store.findDevelopmentAccess();
      if (!access) {
        access = await store.claimDevelopmentAccess({
          orgId: newResourceId("org_"),
          name: DEVELOPMENT_ORGANIZATION_NAME,
          projectId: generateProjectId(),
          origins: [origin],
          at: now(),
        });
      }
      await store.addProjectOrigin(access.projectId, origin);
      if (previousKey !== undefined && isApiKeyFormat(previousKey)) {
        const found = await store.findKeyByHash(hashApiKey(previousKey));
        if (found && found.orgId === access.orgId && apiKeyStatus(found, now()) === "active") {
          return {
            orgId: access.orgId,
            projectId: access.projectId,
            allowedOrigin: origin,
            keyId: found.keyId,
            apiKey: previousKey,
            keyCreated: false,
          };
        }
      }
      const created = await createApiKey(access.orgId);
      return {
        orgId: access.orgId,
        projectId: access.projectId,
        allowedOrigin: origin,
        keyId: created.keyId,
        apiKey: created.key,
        keyCreated: true,
      };
    },
  };
}
