import type { Clock } from "@hub/clock";
import {
  apiKeyDisplayPrefix,
  generateApiKey,
  generateProjectId,
  hashApiKey,
  isApiKeyFormat,
} from "@hub/contract";
import type { AccessStore, ApiKeyRecord, OrganizationRecord, ProjectRecord } from "@hub/store";
import { adminLimits } from "./admin-limits.js";
import { AdminRefusal } from "./admin-refusal.js";
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
  label: string | null;
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
  label: string | null;
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

/** One page of organizations, oldest first. */
export interface OrganizationPage {
  organizations: Organization[];
  /** Pass as `after` for the next page; null on the last page. */
  next: string | null;
}

/** The organization, project and key verbs of `hub admin` and the dashboard. */
export interface AccessAdmin {
  createOrganization(input: { name: string }): Promise<{ organization: Organization }>;
  listOrganizations(input?: { limit?: number; after?: string }): Promise<OrganizationPage>;
  /** The organization with its project (null while it has none). */
  showOrganization(input: {
    orgId: string;
  }): Promise<{ organization: Organization; project: Project | null }>;
  createProject(input: { orgId: string; origins: readonly string[] }): Promise<{ project: Project }>;
  showProject(input: { projectId: string }): Promise<{ project: Project }>;
  /** Replaces the project's allowed origins with exactly these. */
  setProjectOrigins(input: { projectId: string; origins: readonly string[] }): Promise<{ project: Project }>;
  /** Adds one origin (normalised) to the project's list; adding one already there changes nothing. */
  addProjectOrigin(input: { projectId: string; origin: string }): Promise<{ project: Project }>;
  /** Removes one origin from the project's list; removing one not there changes nothing. */
  removeProjectOrigin(input: { projectId: string; origin: string }): Promise<{ project: Project }>;
  createKey(input: {
    orgId: string;
    expiresInSeconds?: number;
    label?: string;
  }): Promise<{ apiKey: CreatedApiKey }>;
  /** With orgId, a key of another organization is refused as not found (and stays as it is). */
  revokeKey(input: { keyId: string; orgId?: string }): Promise<{ apiKey: ApiKeyInfo }>;
  listKeys(input: { orgId: string }): Promise<{ orgId: string; apiKeys: ApiKeyInfo[] }>;
  /**
   * The development organization, its project (with allowedOrigin among its origins) and a working
   * key. The same organization and project on every start; previousKey (the plaintext kept in
   * dev.json) is returned again while it is valid, otherwise a new key is made.
   */
  ensureDevelopmentAccess(input: { allowedOrigin: string; previousKey?: string }): Promise<DevelopmentAccess>;
}

export interface AccessAdminDeps {
  store: AccessStore;
  clock: Clock;
}

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

/** A key's label: trimmed, 1 to 100 characters, no control characters. */
export function normaliseKeyLabel(input: string): string {
  const label = input.trim();
  if (label.length < 1 || label.length > adminLimits.maxKeyLabelLength) {
    throw new AdminRefusal(
      "invalid-argument",
      `a key's label must be 1 to ${adminLimits.maxKeyLabelLength} characters`,
    );
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(label)) {
    throw new AdminRefusal("invalid-argument", "a key's label cannot hold control characters");
  }
  return label;
}

function normaliseOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.map(normaliseOrigin))];
}

const organizationNotFound = (orgId: string) =>
  new AdminRefusal("organization-not-found", `organization ${orgId} does not exist`);
const projectNotFound = (projectId: string) =>
  new AdminRefusal("project-not-found", `project ${projectId} does not exist`);

/** Organizations, their project and keys: every rule behind the CLI and the dashboard. */
export function createAccessAdmin(deps: AccessAdminDeps): AccessAdmin {
  const { store, clock } = deps;
  const now = () => new Date(clock.now());

  const keyOut = (record: ApiKeyRecord): ApiKeyInfo => ({
    keyId: record.keyId,
    orgId: record.orgId,
    label: record.label,
    displayPrefix: record.displayPrefix,
    status: apiKeyStatus(record, now()),
    createdAt: record.createdAt.toISOString(),
    expiresAt: record.expiresAt?.toISOString() ?? null,
    revokedAt: record.revokedAt?.toISOString() ?? null,
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
  });

  const createKey = async ({
    orgId,
    expiresInSeconds,
    label,
  }: {
    orgId: string;
    expiresInSeconds?: number;
    label?: string;
  }) => {
    const keyLabel = label === undefined ? null : normaliseKeyLabel(label);
    if (
      expiresInSeconds !== undefined &&
      (!Number.isInteger(expiresInSeconds) ||
        expiresInSeconds < 1 ||
        expiresInSeconds > adminLimits.maxKeyLifetimeSeconds)
    ) {
      throw new AdminRefusal(
        "invalid-argument",
        `a key's lifetime must be a whole number of seconds from 1 to ${adminLimits.maxKeyLifetimeSeconds} (10 years)`,
      );
    }
    const key = generateApiKey();
    const createdAt = now();
    const record = await store.insertApiKey({
      keyId: newResourceId("key_"),
      orgId,
      label: keyLabel,
      keyHash: hashApiKey(key),
      displayPrefix: apiKeyDisplayPrefix(key),
      createdAt,
      expiresAt:
        expiresInSeconds === undefined ? null : new Date(createdAt.getTime() + expiresInSeconds * 1000),
    });
    if (!record) throw organizationNotFound(orgId);
    const apiKey: CreatedApiKey = {
      keyId: record.keyId,
      orgId: record.orgId,
      label: record.label,
      key,
      displayPrefix: record.displayPrefix,
      createdAt: record.createdAt.toISOString(),
      expiresAt: record.expiresAt?.toISOString() ?? null,
    };
    return { apiKey };
  };

  return {
    async createOrganization({ name }) {
      const trimmed = name.trim();
      if (trimmed.length < 1 || trimmed.length > 200) {
        throw new AdminRefusal("invalid-argument", "an organization name must be 1 to 200 characters");
      }
      const record = await store.createOrganization({
        orgId: newResourceId("org_"),
        name: trimmed,
        at: now(),
      });
      return { organization: organizationOut(record) };
    },

    async listOrganizations({ limit = 100, after } = {}) {
      if (!Number.isInteger(limit) || limit < 1 || limit > adminLimits.maxOrganizationPage) {
        throw new AdminRefusal(
          "invalid-argument",
          `a page holds 1 to ${adminLimits.maxOrganizationPage} organizations`,
        );
      }
      const records = await store.listOrganizations({
        limit: limit + 1,
        ...(after ? { afterOrgId: after } : {}),
      });
      const organizations = records.slice(0, limit).map(organizationOut);
      return { organizations, next: records.length > limit ? (organizations.at(-1)?.orgId ?? null) : null };
    },

    async showOrganization({ orgId }) {
      const record = await store.getOrganization(orgId);
      if (!record) throw organizationNotFound(orgId);
      const project = record.projectId ? await store.getProject(record.projectId) : undefined;
      return { organization: organizationOut(record), project: project ? projectOut(project) : null };
    },

    async createProject({ orgId, origins }) {
      const allowed = normaliseOrigins(origins);
      const outcome = await store.createProject({
        projectId: generateProjectId(),
        orgId,
        origins: allowed,
        at: now(),
      });
      if (outcome.created) return { project: projectOut(outcome.project) };
      if (outcome.reason === "organization-not-found") throw organizationNotFound(orgId);
      throw new AdminRefusal(
        "organization-has-project",
        `organization ${orgId} already has project ${outcome.projectId} (one project per organization)`,
      );
    },

    async showProject({ projectId }) {
      const record = await store.getProject(projectId);
      if (!record) throw projectNotFound(projectId);
      return { project: projectOut(record) };
    },

    async setProjectOrigins({ projectId, origins }) {
      const allowed = normaliseOrigins(origins);
      const record = await store.setProjectOrigins(projectId, allowed);
      if (!record) throw projectNotFound(projectId);
      return { project: projectOut(record) };
    },

    async addProjectOrigin({ projectId, origin }) {
      if (!(await store.addProjectOrigin(projectId, normaliseOrigin(origin))))
        throw projectNotFound(projectId);
      return { project: projectOut((await store.getProject(projectId))!) };
    },

    async removeProjectOrigin({ projectId, origin }) {
      if (!(await store.removeProjectOrigin(projectId, origin))) throw projectNotFound(projectId);
      return { project: projectOut((await store.getProject(projectId))!) };
    },

    createKey,

    async revokeKey({ keyId, orgId }) {
      const notFound = () => new AdminRefusal("key-not-found", `key ${keyId} does not exist`);
      // A key never changes organization, so the check before the revoke cannot go stale.
      if (orgId !== undefined && (await store.getApiKey(keyId))?.orgId !== orgId) throw notFound();
      const record = await store.revokeApiKey(keyId, now());
      if (!record) throw notFound();
      return { apiKey: keyOut(record) };
    },

    async listKeys({ orgId }) {
      const [organization, keys] = await Promise.all([
        store.getOrganization(orgId),
        store.listApiKeys(orgId),
      ]);
      if (!organization) throw organizationNotFound(orgId);
      return { orgId, apiKeys: keys.map(keyOut) };
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
      const { apiKey } = await createKey({ orgId: access.orgId });
      return {
        orgId: access.orgId,
        projectId: access.projectId,
        allowedOrigin: origin,
        keyId: apiKey.keyId,
        apiKey: apiKey.key,
        keyCreated: true,
      };
    },
  };
}
