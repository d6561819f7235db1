import {
  CREDENTIAL_KINDS,
  type KindTally,
  MINUTE_MS,
  type MinuteTally,
  ROUTE_KINDS,
  tallyIndex,
} from "./minute-tally.js";

/** The store's rows of the organizations' counts: one per minute, organization, kinds and code. */
export function usageRows(batch: Map<number, MinuteTally>) {
  const rows = [];
  for (const [minute, organizations] of batch) {
    const at = new Date(minute * MINUTE_MS);
    for (const [orgId, organization] of organizations) {
      for (const credentialKind of CREDENTIAL_KINDS) {
        for (const routeKind of ROUTE_KINDS) {
          const tally = organization.kinds[tallyIndex(credentialKind, routeKind)] as KindTally;
          if (tally.successes > 0) {
            rows.push({ orgId, minute: at, credentialKind, routeKind, code: "", count: tally.successes });
          }
          for (const [code, count] of tally.refusals ?? []) {
            rows.push({ orgId, minute: at, credentialKind, routeKind, code, count });
          }
        }
      }
    }
  }
  return rows;
}
