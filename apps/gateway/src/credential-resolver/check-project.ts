import { cachedLookup } from "./cached-lookup.js";
import type { ProjectCheck } from "./credential-checks.js";
import type { CredentialResolverState } from "./credential-resolver-state.js";

/** Checks a project id: its organization and exact allowed origins. */
export async function checkProject(state: CredentialResolverState, projectId: string): Promise<ProjectCheck> {
  const row = await cachedLookup(state, state.projects, projectId, async () => {
    const found = await state.store.findProjectByPublicId(projectId);
    return found && { ...found, allowedOrigins: new Set(found.allowedOrigins) };
  });
  if (!row) return { ok: false, code: "EPX0009" };
  return {
    ok: true,
    projectId: row.projectId,
    orgId: row.orgId,
    allowedOrigins: row.allowedOrigins,
  };
}
