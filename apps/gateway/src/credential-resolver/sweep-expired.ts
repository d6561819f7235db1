import type { Cached } from "./credential-resolver-state.js";

/** Drops the expired entries; every entry lives cacheMs from its insertion, so insertion order is expiry order. */
export function sweepExpired<T>(cache: Map<string, Cached<T>>, nowMs: number): void {
  for (const [id, entry] of cache) {
    if (entry.expiresAtMs > nowMs) return;
    cache.delete(id);
  }
}
