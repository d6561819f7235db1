import type { BucketRule } from "@hub/counters";

/**
 * The per-project pool (all visitors of a project id together), sized as a share of the hub's
 * per-organization bucket so anonymous callers can never spend more than that share of the
 * organization's hub rate, whatever the number of visitors.
 */
export function projectPoolRule(hubOrganizationBucket: BucketRule, share: number): BucketRule {
  return {
    ratePerSecond: hubOrganizationBucket.ratePerSecond * share,
    burst: Math.max(1, Math.floor(hubOrganizationBucket.burst * share)),
  };
}
