import type { BucketRule } from "@hub/counters";

/**
 * The per-project pool (all visitors of a project id together), counted in reads: a share of the
 * hub's per-organization bucket, in quotes, times what a quote costs in reads. Quotes and submissions
 * alone can never spend more than that share of the organization's hub rate or burst, however many
 * visitors send them; a read (which the hub does not charge) costs 1.
 */
export function projectPoolRule(
  hubOrganizationBucket: BucketRule,
  share: number,
  quoteCost: number,
): BucketRule {
  return {
    ratePerSecond: hubOrganizationBucket.ratePerSecond * share * quoteCost,
    burst: Math.max(1, Math.floor(hubOrganizationBucket.burst * share)) * quoteCost,
  };
}
