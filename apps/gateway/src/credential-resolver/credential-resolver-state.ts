import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import type { AccessLookup } from "./access-lookup.js";

export interface CredentialResolverConfig {
  /** How long a lookup is reused; at most 1 s so that a revoke is refused within 2 s. */
  readonly cacheMs?: number;
  readonly maxCachedEntries?: number;
  /** How often used key ids are written to the store, in one batch. */
  readonly usageFlushMs?: number;
}

export interface Cached<T> {
  readonly expiresAtMs: number;
  readonly lookup: Promise<T>;
}

export type KeyRow = Awaited<ReturnType<AccessLookup["findKeyByHash"]>>;
export type ProjectRow =
  | { projectId: string; orgId: string; allowedOrigins: ReadonlySet<string> }
  | undefined;

/** The resolver's caches of lookups and the key ids used since the last write. */
export interface CredentialResolverState {
  readonly store: AccessLookup;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly cacheMs: number;
  readonly maxEntries: number;
  /**
   * Keyed by the key as presented, so a cached key costs no hash; entries leave once expired (sweep),
   * so no key is held longer than its lookup is reused.
   */
  readonly keys: Map<string, Cached<KeyRow>>;
  readonly projects: Map<string, Cached<ProjectRow>>;
  usedKeyIds: Set<string>;
}

export function createCredentialResolverState(
  config: CredentialResolverConfig,
  deps: { store: AccessLookup; logger: Logger; clock: Clock },
): CredentialResolverState {
  return {
    store: deps.store,
    logger: deps.logger,
    clock: deps.clock,
    cacheMs: Math.min(config.cacheMs ?? 1_000, 1_000),
    maxEntries: config.maxCachedEntries ?? 50_000,
    keys: new Map(),
    projects: new Map(),
    usedKeyIds: new Set(),
  };
}
