import type { Clock } from "./clock.js";
import { systemClock } from "./system-clock.js";

/** A clock that runs with its base and can be moved forward, never back. */
export interface AdjustableClock extends Clock {
  advance(ms: number): void;
  /** How far this clock runs ahead of its base. */
  offsetMs(): number;
}

/** The base plus an offset that starts at 0; a fixed base (`{ now: () => startMs }`) gives a clock a test moves by hand. */
export function createAdjustableClock(base: Clock = systemClock): AdjustableClock {
  let offsetMs = 0;
  return {
    now: () => base.now() + offsetMs,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot move the clock by ${ms} ms`);
      offsetMs += ms;
    },
    offsetMs: () => offsetMs,
  };
}
