import { type KindTally, tallyIndex } from "./minute-tally.js";
import { organizationIn } from "./organization-in.js";
import type { UsageTallyState } from "./usage-tally-state.js";
import type { CallRouteKind, UsageCredentialKind } from "./usage-writer.js";

/** Adds calls to the organization's count of the minute, or to `dropped` past the per-minute bound. */
export function addCalls(
  state: UsageTallyState,
  minute: number,
  orgId: string,
  kind: UsageCredentialKind,
  route: CallRouteKind,
  code: string,
  count: number,
): void {
  const organization = organizationIn(state, minute, orgId);
  if (organization === undefined) {
    state.dropped += count;
    return;
  }
  const tally = organization.kinds[tallyIndex(kind, route)] as KindTally;
  if (code === "") tally.successes += count;
  else {
    tally.refusals ??= new Map();
    tally.refusals.set(code, (tally.refusals.get(code) ?? 0) + count);
  }
}
