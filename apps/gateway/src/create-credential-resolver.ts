import { type Clock, systemClock } from "@hub/clock";
import type { Logger } from "pino";
import type { AccessLookup } from "./credential-resolver/access-lookup.js";
import { cachedOrganization } from "./credential-resolver/cached-organization.js";
import { checkKey } from "./credential-resolver/check-key.js";
import { checkProject } from "./credential-resolver/check-project.js";
import type { KeyCheck, ProjectCheck } from "./credential-resolver/credential-checks.js";
import {
  type CredentialResolverConfig,
  createCredentialResolverState,
} from "./credential-resolver/credential-resolver-state.js";
import { flushUsedKeys } from "./credential-resolver/flush-used-keys.js";
import { sweepExpired } from "./credential-resolver/sweep-expired.js";

export type { AccessLookup } from "./credential-resolver/access-lookup.js";
export type { KeyCheck, ProjectCheck } from "./credential-resolver/credential-checks.js";
export type { CredentialResolverConfig } from "./credential-resolver/credential-resolver-state.js";

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

export function createCredentialResolver(
  config: CredentialResolverConfig,
  deps: { store: AccessLookup; logger: Logger; clock?: Clock },
): CredentialResolver {
  const state = createCredentialResolverState(config, {
    store: deps.store,
    logger: deps.logger,
    clock: deps.clock ?? systemClock,
  });
  const timer = setInterval(() => {
    sweepExpired(state.keys, state.clock.now());
    void flushUsedKeys(state);
  }, config.usageFlushMs ?? 1_000);
  timer.unref();

  return {
    checkKey: (key) => checkKey(state, key),
    checkProject: (projectId) => checkProject(state, projectId),
    cachedOrganization: (credential) => cachedOrganization(state, credential),
    async close() {
      clearInterval(timer);
      await flushUsedKeys(state);
    },
  };
}
