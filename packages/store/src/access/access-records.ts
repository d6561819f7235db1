export interface OrganizationRecord {
  orgId: string;
  name: string;
  createdAt: Date;
  /** The organization's project, when it has one. */
  projectId: string | null;
  /** While set, the gateway refuses the organization's keys and project id. */
  disabledAt: Date | null;
  /** Members without two-factor are sent to set it up. */
  requireTwoFactor: boolean;
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
  /** While set, the gateway refuses the key as if revoked; enabling clears it. */
  disabledAt: Date | null;
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
  /** Disables (at) or enables (null) the organization; false when it does not exist. */
  setOrganizationDisabled(orgId: string, at: Date | null): Promise<boolean>;
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
  /**
   * Disables (at; a second disable keeps the first time) or enables (null) the key. undefined when the
   * key does not exist.
   */
  setApiKeyDisabled(keyId: string, at: Date | null): Promise<ApiKeyRecord | undefined>;
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
