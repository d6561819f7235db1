import { type Clock, systemClock } from "@hub/clock";
import type { AccessStore, AuditStore, DashboardStore, UsageStore } from "@hub/store";
import type { AccessAdmin } from "./access-admin.js";
import { createAccessAdmin } from "./access/create-access-admin.js";
import { type AccountAdmin, createAccountAdmin } from "./account-admin.js";
import { createAdminActionRecorder } from "./admin-action-recorder.js";
import type { AdminActor } from "./admin-actor.js";
import { type AuditAdmin, createAuditAdmin } from "./audit-admin.js";
import { auditedInviteVerbs } from "./audited/audited-invite-verbs.js";
import { auditedKeyVerbs } from "./audited/audited-key-verbs.js";
import { auditedOperationVerbs } from "./audited/audited-operation-verbs.js";
import { auditedOrganizationVerbs } from "./audited/audited-organization-verbs.js";
import type { MemberAdmin } from "./member-admin.js";
import { createMemberAdmin } from "./members/create-member-admin.js";
import { type ChainAdmin, type ChainReindexer, createChainAdmin } from "./chain-admin.js";
import { createReservationAdmin, type ReservationAdmin } from "./reservation-admin.js";
import type { ReservationBook } from "./reservation-book.js";
import { createUsageAdmin, type UsageAdmin } from "./usage-admin.js";

/**
 * Every admin verb: organizations, projects, keys, dashboard invites, the submission reservations, usage
 * and the audit log.
 */
export type Admin = AccessAdmin &
  AccountAdmin &
  MemberAdmin &
  ReservationAdmin &
  UsageAdmin &
  AuditAdmin &
  ChainAdmin;

export interface AdminDeps {
  store: AccessStore;
  /** The hub's reservations; without it the reservation verbs fail. */
  reservations?: ReservationBook;
  /** The hub's chain facts; without it `reindex` fails. */
  chains?: ChainReindexer;
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
    : { usage: unavailable("usage"), keyUsage: unavailable("usage") };
  const audit: AuditAdmin = deps.audit
    ? createAuditAdmin({ audit: deps.audit })
    : { listAuditLog: unavailable("audit log") };

  const chains: ChainAdmin = deps.chains
    ? createChainAdmin({ chains: deps.chains })
    : { reindexChain: unavailable("chain") };

  const accounts: AccountAdmin = deps.accounts
    ? createAccountAdmin({ store: deps.store, accounts: deps.accounts, clock })
    : { inviteMember: unavailable("invite"), inviteOperator: unavailable("invite") };
  const members: MemberAdmin = deps.accounts
    ? createMemberAdmin({
        store: deps.store,
        accounts: deps.accounts,
        actor: deps.actor ?? { source: "cli" },
        record,
        clock,
      })
    : {
        listMembers: unavailable("member"),
        removeMember: unavailable("member"),
        setMemberRole: unavailable("member"),
        setRequireTwoFactor: unavailable("member"),
        listOperators: unavailable("operator"),
        setOperatorDisabled: unavailable("operator"),
        setOrganizationDisabled: unavailable("organization"),
        canManageMembers: unavailable("member"),
      };

  return {
    ...access,
    ...accounts,
    ...members,
    ...reservations,
    ...usage,
    ...audit,
    ...auditedOperationVerbs(chains, reservations, record),
    ...auditedOrganizationVerbs(access, record),
    ...auditedKeyVerbs(access, record),
    ...auditedInviteVerbs(accounts, deps.accounts ? members : undefined, record),
  };
}
