import type { Cached, CredentialResolverState } from "./credential-resolver-state.js";

function cachedOnly<T>(
  state: CredentialResolverState,
  cache: Map<string, Cached<T>>,
  id: string,
): Promise<T | undefined> {
  const hit = cache.get(id);
  if (!hit || hit.expiresAtMs <= state.clock.now()) return Promise.resolve(undefined);
  return hit.lookup.catch(() => undefined);
}

/** The organization of a credential the cache holds now and that is valid; no store lookup. */
export async function cachedOrganization(
  state: CredentialResolverState,
  credential: { kind: "key"; key: string } | { kind: "project"; projectId: string },
): Promise<string | undefined> {
  if (credential.kind === "project")
    return (await cachedOnly(state, state.projects, credential.projectId))?.orgId;
  const row = await cachedOnly(state, state.keys, credential.key);
  if (
    !row ||
    row.revokedAt !== null ||
    (row.expiresAt !== null && row.expiresAt.getTime() <= state.clock.now())
  )
    return undefined;
  return row.orgId;
}
