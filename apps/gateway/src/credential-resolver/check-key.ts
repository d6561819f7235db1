import { hashApiKey } from "@hub/contract";
import { cachedLookup } from "./cached-lookup.js";
import type { KeyCheck } from "./credential-checks.js";
import type { CredentialResolverState } from "./credential-resolver-state.js";

/** Checks an API key; an accepted key is marked used with the next batch. */
export async function checkKey(state: CredentialResolverState, key: string): Promise<KeyCheck> {
  const row = await cachedLookup(state, state.keys, key, () => state.store.findKeyByHash(hashApiKey(key)));
  if (!row) return { ok: false, code: "EPX0002", counts: true };
  // The clock is read only for a key that expires (most keys never do).
  if (row.revokedAt !== null || (row.expiresAt !== null && row.expiresAt.getTime() <= state.clock.now())) {
    return { ok: false, code: "EPX0002", counts: false };
  }
  state.usedKeyIds.add(row.keyId);
  return { ok: true, keyId: row.keyId, orgId: row.orgId };
}
