import type { Clock } from "./clock.js";

/** The wall clock, `Date.now()`. */
export const systemClock: Clock = { now: () => Date.now() };
