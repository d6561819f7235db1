import { CREDENTIAL_KINDS, type OrganizationTally, ROUTE_KINDS } from "./minute-tally.js";
import type { UsageTallyState } from "./usage-tally-state.js";

/** The organization's counts of the minute, made on its first call; undefined past the per-minute bound. */
export function organizationIn(
  state: UsageTallyState,
  minute: number,
  orgId: string,
): OrganizationTally | undefined {
  if (minute !== state.currentMinute) {
    let tally = state.minutes.get(minute);
    if (tally === undefined) {
      tally = new Map();
      state.minutes.set(minute, tally);
    }
    state.current = tally;
    state.currentMinute = minute;
  }
  let organization = state.current.get(orgId);
  if (organization === undefined) {
    if (state.current.size >= state.maxOrganizations) return undefined;
    organization = {
      kinds: Array.from({ length: CREDENTIAL_KINDS.length * ROUTE_KINDS.length }, () => ({
        successes: 0,
        refusals: undefined,
      })),
      keys: undefined,
    };
    state.current.set(orgId, organization);
  }
  return organization;
}
