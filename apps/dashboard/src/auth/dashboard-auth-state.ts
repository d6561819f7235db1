import { type AdminActionRecorder, createAdminActionRecorder } from "@hub/admin";
import type { Clock } from "@hub/clock";
import type { AuditStore, DashboardAccountRecord, DashboardStore } from "@hub/store";
import type { AttemptLimiter } from "./attempt-limiter.js";
import { createVerifyNothing, type PasswordHasher } from "./password-hash.js";

export interface SessionLimits {
  idleMs: number;
  absoluteMs: number;
}

export interface DashboardAuthDeps {
  store: DashboardStore;
  attempts: AttemptLimiter;
  hasher: PasswordHasher;
  clock: Clock;
  limits: SessionLimits;
  /** Where joins and two-factor changes are recorded, as the account's own actions. */
  audit?: AuditStore | undefined;
}

/** What every verb of the dashboard's sign-in and sessions works with. */
export interface DashboardAuthState {
  store: DashboardStore;
  attempts: AttemptLimiter;
  hasher: PasswordHasher;
  clock: Clock;
  limits: SessionLimits;
  verifyNothing(password: string): Promise<false>;
  /** Records an action as the account's own. */
  recordFor(account: DashboardAccountRecord): AdminActionRecorder;
}

export function createDashboardAuthState(deps: DashboardAuthDeps): DashboardAuthState {
  const { store, attempts, hasher, clock, limits } = deps;
  return {
    store,
    attempts,
    hasher,
    clock,
    limits,
    verifyNothing: createVerifyNothing(hasher),
    recordFor: (account) =>
      createAdminActionRecorder({
        audit: deps.audit,
        actor: { source: "dashboard", accountId: account.accountId, email: account.email },
        clock,
      }),
  };
}
