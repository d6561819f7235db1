import { type Clock, systemClock } from "@hub/clock";
import { apiKeyDisplayPrefix } from "@hub/contract";
import type { AccessStore, AuditStore, DashboardStore, UsageStore } from "@hub/store";
import { type AccessAdmin, createAccessAdmin } from "./access-admin.js";
import { type AccountAdmin, createAccountAdmin } from "./account-admin.js";
import { createAdminActionRecorder } from "./admin-action-recorder.js";
import type { AdminActor } from "./admin-actor.js";
import { type AuditAdmin, createAuditAdmin } from "./audit-admin.js";
import { createReservationAdmin, type ReservationAdmin } from "./reservation-admin.js";
import type { ReservationBook } from "./reservation-book.js";
import { createUsageAdmin, type UsageAdmin } from "./usage-admin.js";

/**
 * Every admin verb: organizations, projects, keys, dashboard invites, the submission reservations, usage
 * and the audit log.
 */
export type Admin = AccessAdmin & AccountAdmin & ReservationAdmin & UsageAdmin & AuditAdmin;

export interface AdminDeps {
  store: AccessStore;
  /** The hub's reservations; without it the reservation verbs fail. */
  reservations?: ReservationBook;
  /** The dashboard accounts; without it the invite verbs fail. */
  accounts?: DashboardStore;
  /** The gateways' usage counters; without it `usage` fails. */
  usage?: UsageStore;
  /** Where every action that changed something is recorded; without it nothing is recorded and `listAuditLog` fails. */
  audit?: AuditStore;
  /** Who the actions are recorded for (default: the CLI). */
  actor?: AdminActor;
  clock?: Clock;
}

const unavailable = (what: string) => async (): Promise<never> => {
  throw new Error(`this service does not serve the ${what} verbs`);
};

/**
 * The one place that decides the admin rules; the CLI and the dashboard call it. Each verb that changed
 * something writes one audit entry right after it succeeded; a refusal changed nothing and is not recorded.
 */
export function createAdmin(deps: AdminDeps): Admin {
  const clock = deps.clock ?? systemClock;
  const record = createAdminActionRecorder({
    audit: deps.audit,
    actor: deps.actor ?? { source: "cli" },
    clock,
  });
  const access = createAccessAdmin({ store: deps.store, clock });
  const reservations: ReservationAdmin = deps.reservations
    ? createReservationAdmin({ book: deps.reservations, clock })
    : { listReservations: unavailable("reservation"), reconcileReservation: unavailable("reservation") };
  const usage: UsageAdmin = deps.usage
    ? createUsageAdmin({ access: deps.store, usage: deps.usage, clock })
    : { usage: unavailable("usage") };
  const audit: AuditAdmin = deps.audit
    ? createAuditAdmin({ audit: deps.audit })
    : { listAuditLog: unavailable("audit log") };

  const accounts: AccountAdmin = deps.accounts
    ? createAccountAdmin({ store: deps.store, accounts: deps.accounts, clock })
    : { inviteMember: unavailable("invite"), inviteOperator: unavailable("invite") };

  return {
    ...access,
    ...accounts,
    ...reservations,
    ...usage,
    ...audit,

    async createOrganization(input) {
      const result = await access.createOrganization(input);
      const { orgId, name } = result.organization;
      await record({ action: "organization.create", orgId, target: orgId, detail: { name } });
      return result;
    },

    async createProject(input) {
      const result = await access.createProject(input);
      const { projectId, orgId, allowedOrigins } = result.project;
      await record({ action: "project.create", orgId, target: projectId, detail: { allowedOrigins } });
      return result;
    },

    async setProjectOrigins(input) {
      const result = await access.setProjectOrigins(input);
      const { projectId, orgId, allowedOrigins } = result.project;
      await record({ action: "project.set-origins", orgId, target: projectId, detail: { allowedOrigins } });
      return result;
    },

    async addProjectOrigin(input) {
      const result = await access.addProjectOrigin(input);
      const { projectId, orgId, allowedOrigins } = result.project;
      await record({ action: "project.add-origin", orgId, target: projectId, detail: { allowedOrigins } });
      return result;
    },

    async removeProjectOrigin(input) {
      const result = await access.removeProjectOrigin(input);
      const { projectId, orgId, allowedOrigins } = result.project;
      await record({ action: "project.remove-origin", orgId, target: projectId, detail: { allowedOrigins } });
      return result;
    },

    async createKey(input) {
      const result = await access.createKey(input);
      const { keyId, orgId, displayPrefix, expiresAt, label } = result.apiKey;
      await record({
        action: "key.create",
        orgId,
        target: keyId,
        detail: { label, displayPrefix, expiresAt },
      });
      return result;
    },

    async revokeKey(input) {
      const result = await access.revokeKey(input);
      const { keyId, orgId, displayPrefix } = result.apiKey;
      await record({ action: "key.revoke", orgId, target: keyId, detail: { displayPrefix } });
      return result;
    },

    async ensureDevelopmentAccess(input) {
      const result = await access.ensureDevelopmentAccess(input);
      if (result.keyCreated) {
        await record({
          action: "development-access.create-key",
          orgId: result.orgId,
          target: result.keyId,
          detail: { displayPrefix: apiKeyDisplayPrefix(result.apiKey), projectId: result.projectId },
        });
      }
      return result;
    },

    async inviteMember(input) {
      const result = await accounts.inviteMember(input);
      const { accountId, email, orgId, expiresAt } = result.invite;
      await record({ action: "member.invite", orgId, target: accountId, detail: { email, expiresAt } });
      return result;
    },

    async inviteOperator(input) {
      const result = await accounts.inviteOperator(input);
      const { accountId, email, expiresAt } = result.invite;
      await record({
        action: "operator.invite",
        orgId: null,
        target: accountId,
        detail: { email, expiresAt },
      });
      return result;
    },

    async reconcileReservation(input) {
      const result = await reservations.reconcileReservation(input);
      const { hubOrderId, orgId, state, onchainOrderId, reconciledNote } = result.reservation;
      await record({
        action: input.opened ? "reservation.mark-opened" : "reservation.mark-not-opened",
        orgId,
        target: hubOrderId,
        detail: { state, onchainOrderId, note: reconciledNote },
      });
      return result;
    },
  };
}
