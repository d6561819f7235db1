import type { Clock } from "@hub/clock";
import type { AccessStore } from "@hub/store";
import type { ApiKeyStatus } from "./api-key-status.js";

export interface Organization {
  orgId: string;
  name: string;
  createdAt: string;
  projectId: string | null;
  /** While set, the gateway refuses the organization's keys and project id. */
  disabledAt: string | null;
  /** Members without two-factor are sent to set it up. */
  requireTwoFactor: boolean;
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
  /** While set, the gateway refuses the key (EPX0002) until it is enabled. */
  disabledAt: string | null;
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
  /**
   * Disables a key (refused at the gateway like a revoked one) or enables it again; a revoked key is
   * refused (`key-revoked`). `changed` is false when the key already was so (a second disable keeps
   * the first time). With orgId, a key of another organization is not found.
   */
  setKeyDisabled(input: {
    keyId: string;
    disabled: boolean;
    orgId?: string;
  }): Promise<{ apiKey: ApiKeyInfo; changed: boolean }>;
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
