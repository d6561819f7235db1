/** The one source of time for services whose rules depend on it; tests may pass their own. */
export interface Clock {
  nowMs(): number;
}

export function createSystemClock(): Clock {
  return { nowMs: () => Date.now() };
}
