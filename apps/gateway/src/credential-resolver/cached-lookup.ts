import type { Cached, CredentialResolverState } from "./credential-resolver-state.js";
import { sweepExpired } from "./sweep-expired.js";

/** A lookup reused for cacheMs: concurrent lookups of one credential share one store query; a failed query is not cached. */
export function cachedLookup<T>(
  state: CredentialResolverState,
  cache: Map<string, Cached<T>>,
  id: string,
  load: () => Promise<T>,
): Promise<T> {
  const nowMs = state.clock.now();
  const hit = cache.get(id);
  if (hit && hit.expiresAtMs > nowMs) return hit.lookup;
  if (hit) cache.delete(id);
  sweepExpired(cache, nowMs);
  const lookup = load();
  const entry = { expiresAtMs: nowMs + state.cacheMs, lookup };
  cache.set(id, entry);
  lookup.catch(() => {
    if (cache.get(id) === entry) cache.delete(id);
  });
  while (cache.size > state.maxEntries) {
    const oldest = cache.keys().next();
    if (oldest.done) break;
    cache.delete(oldest.value);
  }
  return lookup;
}
