import type { Clock } from "@hub/clock";
import type { AuditStore } from "@hub/store";
import type { AdminActor } from "./admin-actor.js";

/** One admin action that changed something; never a key's plaintext or hash. */
export interface AdminAction {
  action: string;
  orgId: string | null;
  target: string | null;
  detail?: Record<string, unknown>;
}

/** Writes one audit entry per admin action, with the actor the admin module was built for. */
export type AdminActionRecorder = (action: AdminAction) => Promise<void>;

export function createAdminActionRecorder(deps: {
  audit: AuditStore | undefined;
  actor: AdminActor;
  clock: Clock;
}): AdminActionRecorder {
  const { audit, actor, clock } = deps;
  if (!audit) return async () => {};
  const who =
    actor.source === "dashboard"
      ? { actor: actor.email, actorAccountId: actor.accountId }
      : { actor: actor.user ?? "cli", actorAccountId: null };
  return async ({ action, orgId, target, detail }) => {
    await audit.appendAuditEntry({
      at: new Date(clock.now()),
      ...who,
      source: actor.source,
      action,
      orgId,
      target,
      detail: detail ?? {},
    });
  };
}
