import { type Clock, systemClock } from "@hub/clock";
import { hashApiKey } from "@hub/contract";
import type { Logger } from "pino";

/** What the gateway needs of the access store (@hub/store's AccessStore has these three). */
export interface AccessLookup {
  findKeyByHash(
    keyHash: string,
  ): Promise<{ keyId: string; orgId: string; expiresAt: Date | null; revokedAt: Date | null } | undefined>;
  findProjectByPublicId(
    projectId: string,
  ): Promise<{ projectId: string; orgId: string; allowedOrigins: readonly string[] } | undefined>;
  markKeysUsed(keyIds: readonly string[], at: Date): Promise<void>;
}

/**
 * A key's check: the organization it opens, or EPX0002 (unknown, revoked or expired); `counts` says
 * whether the lockout counts it (the spec counts unknown credentials only).
 */
export type KeyCheck =
  | { readonly ok: true; readonly keyId: string; readonly orgId: string }
  | { readonly ok: false; readonly code: "EPX0002"; readonly counts: boolean };

/** A project id's check: its organization and exact allowed origins, or EPX0009. */
export type ProjectCheck =
  | {
      readonly ok: true;
      readonly projectId: string;
      readonly orgId: string;
      readonly allowedOrigins: ReadonlySet<string>;
    }
  | { readonly ok: false; readonly code: "EPX0009" };

/**
 * Looks credentials up by the store, with a brief cache. Refusals are values; a store that cannot
 * answer is an error (the gateway answers EPX0053).
 */
export interface CredentialResolver {
  checkKey(key: string): Promise<KeyCheck>;
  checkProject(projectId: string): Promise<ProjectCheck>;
  /**
   * The organization of a credential the cache holds now, without a store lookup (so a locked-out
   * caller costs no query); undefined when it is not cached or not valid.
   */
  cachedOrganization(
    credential: { kind: "key"; key: string } | { kind: "project"; projectId: string },
  ): Promise<string | undefined>;
  /** Writes the pending last-used marks and stops the flush timer. */
  close(): Promise<void>;
}

export interface CredentialResolverConfig {
  /** How long a lookup is reused; at most 1 s so that a revoke is refused within 2 s. */
  readonly cacheMs?: number;
  readonly maxCachedEntries?: number;
  /** How often used key ids are written to the store, in one batch. */
  readonly usageFlushMs?: number;
}

interface Cached<T> {
  readonly expiresAtMs: number;
  readonly lookup: Promise<T>;
}

type KeyRow = Awaited<ReturnType<AccessLookup["findKeyByHash"]>>;
type ProjectRow = { projectId: string; orgId: string; allowedOrigins: ReadonlySet<string> } | undefined;

export function createCredentialResolver(
  config: CredentialResolverConfig,
  deps: { store: AccessLookup; logger: Logger; clock?: Clock },
): CredentialResolver {
  const clock = deps.clock ?? systemClock;
  const cacheMs = Math.min(config.cacheMs ?? 1_000, 1_000);
  const maxEntries = config.maxCachedEntries ?? 50_000;
  // Keyed by the key as presented, so a cached key costs no hash; entries leave once expired (sweep),
  // so no key is held longer than its lookup is reused.
  const keys = new Map<string, Cached<KeyRow>>();
  const projects = new Map<string, Cached<ProjectRow>>();
  let usedKeyIds = new Set<string>();

  function cachedOnly<T>(cache: Map<string, Cached<T>>, id: string): Promise<T | undefined> {
    const hit = cache.get(id);
    if (!hit || hit.expiresAtMs <= clock.now()) return Promise.resolve(undefined);
    return hit.lookup.catch(() => undefined);
  }

  // Every entry lives cacheMs from its insertion, so insertion order is expiry order.
  function sweep<T>(cache: Map<string, Cached<T>>, nowMs: number): void {
    for (const [id, entry] of cache) {
      if (entry.expiresAtMs > nowMs) return;
      cache.delete(id);
    }
  }

  // Concurrent lookups of one credential share one store query; a failed query is not cached.
  function cached<T>(cache: Map<string, Cached<T>>, id: string, load: () => Promise<T>): Promise<T> {
    const nowMs = clock.now();
    const hit = cache.get(id);
    if (hit && hit.expiresAtMs > nowMs) return hit.lookup;
    if (hit) cache.delete(id);
    sweep(cache, nowMs);
    const lookup = load();
    const entry = { expiresAtMs: nowMs + cacheMs, lookup };
    cache.set(id, entry);
    lookup.catch(() => {
      if (cache.get(id) === entry) cache.delete(id);
    });
    while (cache.size > maxEntries) {
      const oldest = cache.keys().next();
      if (oldest.done) break;
      cache.delete(oldest.value);
    }
    return lookup;
  }

  async function flushUsage(): Promise<void> {
    if (usedKeyIds.size === 0) return;
    const batch = usedKeyIds;
    usedKeyIds = new Set();
    try {
      await deps.store.markKeysUsed([...batch], new Date(clock.now()));
    } catch (error) {
      deps.logger.warn(
        { err: error, keys: batch.size },
        "could not mark keys used; retrying with the next batch",
      );
      for (const id of batch) usedKeyIds.add(id);
    }
  }

  const timer = setInterval(() => {
    sweep(keys, clock.now());
    void flushUsage();
  }, config.usageFlushMs ?? 1_000);
  timer.unref();

  return {
    async checkKey(key) {
      const row = await cached(keys, key, () => deps.store.findKeyByHash(hashApiKey(key)));
      if (!row) return { ok: false, code: "EPX0002", counts: true };
      // The clock is read only for a key that expires (most keys never do).
      if (row.revokedAt !== null || (row.expiresAt !== null && row.expiresAt.getTime() <= clock.now())) {
        return { ok: false, code: "EPX0002", counts: false };
      }
      usedKeyIds.add(row.keyId);
      return { ok: true, keyId: row.keyId, orgId: row.orgId };
    },

    async checkProject(projectId) {
      const row = await cached(projects, projectId, async () => {
        const found = await deps.store.findProjectByPublicId(projectId);
        return found && { ...found, allowedOrigins: new Set(found.allowedOrigins) };
      });
      if (!row) return { ok: false, code: "EPX0009" };
      return {
        ok: true,
        projectId: row.projectId,
        orgId: row.orgId,
        allowedOrigins: row.allowedOrigins,
      };
    },

    async cachedOrganization(credential) {
      if (credential.kind === "project") return (await cachedOnly(projects, credential.projectId))?.orgId;
      const row = await cachedOnly(keys, credential.key);
      if (
        !row ||
        row.revokedAt !== null ||
        (row.expiresAt !== null && row.expiresAt.getTime() <= clock.now())
      )
        return undefined;
      return row.orgId;
    },

    async close() {
      clearInterval(timer);
      await flushUsage();
    },
  };
}
