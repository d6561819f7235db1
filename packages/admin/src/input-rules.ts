// The input rules alone, light to load: the CLI checks its arguments with them before any service loads.
export * from "./admin-limits.js";
export * from "./parse-duration-seconds.js";
export { type ReservationState, reservationStates } from "./reservation-book.js";
