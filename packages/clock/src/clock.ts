/** The one source of time for every rule that depends on it: milliseconds since the epoch. Tests pass their own. */
export interface Clock {
  now(): number;
}
