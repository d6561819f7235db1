import type { AccessAdminDeps, Organization, OrganizationPage, Project } from "../access-admin.js";
import { adminLimits } from "../admin-limits.js";
import { AdminRefusal } from "../admin-refusal.js";
import { newResourceId } from "../resource-id.js";
import { organizationNotFound, organizationOut, projectOut } from "./access-records.js";

export async function createOrganization(
  { store, clock }: AccessAdminDeps,
  { name }: { name: string },
): Promise<{ organization: Organization }> {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 200) {
    throw new AdminRefusal("invalid-argument", "an organization name must be 1 to 200 characters");
  }
  const record = await store.createOrganization({
    orgId: newResourceId("org_"),
    name: trimmed,
    at: new Date(clock.now()),
  });
  return { organization: organizationOut(record) };
}

export async function listOrganizations(
  { store }: AccessAdminDeps,
  { limit = 100, after }: { limit?: number; after?: string } = {},
): Promise<OrganizationPage> {
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
}

export async function showOrganization(
  { store }: AccessAdminDeps,
  { orgId }: { orgId: string },
): Promise<{ organization: Organization; project: Project | null }> {
  const record = await store.getOrganization(orgId);
  if (!record) throw organizationNotFound(orgId);
  const project = record.projectId ? await store.getProject(record.projectId) : undefined;
  return { organization: organizationOut(record), project: project ? projectOut(project) : null };
}
