/** The one source of time for services whose rules depend on it; tests may pass their own. */
export interface Clock {
  nowMs(): number;
}

export function createSystemClock(): Clock {
  return { nowMs: () => Date.now() };
}

/** A clock that runs with its base and can be moved forward (never back) through the control API. */
export interface AdjustableClock extends Clock {
  advance(ms: number): void;
  /** How far this clock runs ahead of its base. */
  offsetMs(): number;
}

export function createAdjustableClock(base: Clock): AdjustableClock {
  let offsetMs = 0;
  return {
    nowMs: () => base.nowMs() + offsetMs,
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot move the clock by ${ms} ms`);
      offsetMs += ms;
    },
    offsetMs: () => offsetMs,
  };
}
