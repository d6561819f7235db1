import { usageRouteKinds } from "../usage-route-kind.js";
import { organizationIn } from "./organization-in.js";
import type { UsageTallyState } from "./usage-tally-state.js";
import type { KeyUse } from "./usage-writer.js";

/** Adds calls to the key's count of the minute, per route kind. */
export function addKeyUse(
  state: UsageTallyState,
  minute: number,
  orgId: string,
  key: KeyUse,
  count: number,
): void {
  const organization = organizationIn(state, minute, orgId);
  if (organization === undefined) return; // counted in `dropped` with the organization's call
  organization.keys ??= new Map();
  let perKind = organization.keys.get(key.keyId);
  if (perKind === undefined) {
    perKind = usageRouteKinds.map(() => 0);
    organization.keys.set(key.keyId, perKind);
  }
  const index = usageRouteKinds.indexOf(key.routeKind);
  perKind[index] = (perKind[index] ?? 0) + count;
}
