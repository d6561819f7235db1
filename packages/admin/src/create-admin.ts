import { type Clock, systemClock } from "@hub/clock";
import type { AccessStore, DashboardStore } from "@hub/store";
import { type AccessAdmin, createAccessAdmin } from "./access-admin.js";
import { type AccountAdmin, createAccountAdmin } from "./account-admin.js";
import { createReservationAdmin, type ReservationAdmin } from "./reservation-admin.js";
import type { ReservationBook } from "./reservation-book.js";

/** Every admin verb: organizations, projects, keys, dashboard invites and the submission reservations. */
export type Admin = AccessAdmin & AccountAdmin & ReservationAdmin;

export interface AdminDeps {
  store: AccessStore;
  /** The hub's reservations; without it the reservation verbs fail. */
  reservations?: ReservationBook;
  /** The dashboard accounts; without it the invite verbs fail. */
  accounts?: DashboardStore;
  clock?: Clock;
}

const noReservations = async (): Promise<never> => {
  throw new Error("this service does not serve the reservation verbs");
};

const noAccounts = async (): Promise<never> => {
  throw new Error("this service does not serve the invite verbs");
};

/** The one place that decides the admin rules; the CLI and the dashboard call it. */
export function createAdmin(deps: AdminDeps): Admin {
  const clock = deps.clock ?? systemClock;
  const reservations: ReservationAdmin = deps.reservations
    ? createReservationAdmin({ book: deps.reservations, clock })
    : { listReservations: noReservations, reconcileReservation: noReservations };
  const accounts: AccountAdmin = deps.accounts
    ? createAccountAdmin({ store: deps.store, accounts: deps.accounts, clock })
    : {
        inviteMember: noAccounts,
        inviteOperator: noAccounts,
      };
  return { ...createAccessAdmin({ store: deps.store, clock }), ...accounts, ...reservations };
}
