import { generateProjectId } from "@hub/contract";
import type { AccessAdminDeps, Project } from "../access-admin.js";
import { AdminRefusal } from "../admin-refusal.js";
import { normaliseOrigin } from "../normalise-origin.js";
import { organizationNotFound, projectNotFound, projectOut } from "./access-records.js";

function normaliseOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.map(normaliseOrigin))];
}

export async function createProject(
  { store, clock }: AccessAdminDeps,
  { orgId, origins }: { orgId: string; origins: readonly string[] },
): Promise<{ project: Project }> {
  const allowed = normaliseOrigins(origins);
  const outcome = await store.createProject({
    projectId: generateProjectId(),
    orgId,
    origins: allowed,
    at: new Date(clock.now()),
  });
  if (outcome.created) return { project: projectOut(outcome.project) };
  if (outcome.reason === "organization-not-found") throw organizationNotFound(orgId);
  throw new AdminRefusal(
    "organization-has-project",
    `organization ${orgId} already has project ${outcome.projectId} (one project per organization)`,
  );
}

export async function showProject(
  { store }: AccessAdminDeps,
  { projectId }: { projectId: string },
): Promise<{ project: Project }> {
  const record = await store.getProject(projectId);
  if (!record) throw projectNotFound(projectId);
  return { project: projectOut(record) };
}

export async function setProjectOrigins(
  { store }: AccessAdminDeps,
  { projectId, origins }: { projectId: string; origins: readonly string[] },
): Promise<{ project: Project }> {
  const allowed = normaliseOrigins(origins);
  const record = await store.setProjectOrigins(projectId, allowed);
  if (!record) throw projectNotFound(projectId);
  return { project: projectOut(record) };
}

export async function addProjectOrigin(
  { store }: AccessAdminDeps,
  { projectId, origin }: { projectId: string; origin: string },
): Promise<{ project: Project }> {
  if (!(await store.addProjectOrigin(projectId, normaliseOrigin(origin)))) throw projectNotFound(projectId);
  return { project: projectOut((await store.getProject(projectId))!) };
}

export async function removeProjectOrigin(
  { store }: AccessAdminDeps,
  { projectId, origin }: { projectId: string; origin: string },
): Promise<{ project: Project }> {
  if (!(await store.removeProjectOrigin(projectId, origin))) throw projectNotFound(projectId);
  return { project: projectOut((await store.getProject(projectId))!) };
}
