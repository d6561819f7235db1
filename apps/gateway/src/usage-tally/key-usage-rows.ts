import { usageRouteKinds } from "../usage-route-kind.js";
import { MINUTE_MS, type MinuteTally } from "./minute-tally.js";

/** The store's rows of the keys' counts: one per minute, key and route kind that saw calls. */
export function keyUsageRows(batch: Map<number, MinuteTally>) {
  const rows = [];
  for (const [minute, organizations] of batch) {
    const at = new Date(minute * MINUTE_MS);
    for (const [orgId, organization] of organizations) {
      for (const [keyId, perKind] of organization.keys ?? []) {
        for (const [index, routeKind] of usageRouteKinds.entries()) {
          const count = perKind[index] ?? 0;
          if (count > 0) rows.push({ orgId, keyId, minute: at, routeKind, count });
        }
      }
    }
  }
  return rows;
}
