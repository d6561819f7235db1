import { type Clock, systemClock } from "@hub/clock";
import type { AccessStore } from "@hub/store";
import { type AccessAdmin, createAccessAdmin } from "./access-admin.js";
import { createReservationAdmin, type ReservationAdmin } from "./reservation-admin.js";
import type { ReservationBook } from "./reservation-book.js";

/** Every admin verb: organizations, projects, keys and the submission reservations. */
export type Admin = AccessAdmin & ReservationAdmin;

export interface AdminDeps {
  store: AccessStore;
  /** The hub's reservations; without it the reservation verbs fail. */
  reservations?: ReservationBook;
  clock?: Clock;
}

const noReservations = async (): Promise<never> => {
  throw new Error("this service does not serve the reservation verbs");
};

/** The one place that decides the admin rules; the CLI and the dashboard call it. */
export function createAdmin(deps: AdminDeps): Admin {
  const clock = deps.clock ?? systemClock;
  const reservations: ReservationAdmin = deps.reservations
    ? createReservationAdmin({ book: deps.reservations, clock })
    : { listReservations: noReservations, reconcileReservation: noReservations };
  return { ...createAccessAdmin({ store: deps.store, clock }), ...reservations };
}
