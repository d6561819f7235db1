import { HubError } from "@hub/contract";
import type { Counters, TakeResult } from "@hub/counters";

/** The two buckets of the spec's Limits table. */
export type OrganizationBucket = "quote" | "order";

/** Charges one call to an organization's bucket; a shed is EIN0080 with the back-off in ms. */
export interface OrganizationRateLimiter {
  charge(bucket: OrganizationBucket, organization: string): Promise<void>;
}

export function createOrganizationRateLimiter(deps: {
  counters: Pick<Counters, "take">;
  ratePerSecond: number;
  burst: number;
}): OrganizationRateLimiter {
  const rate = { ratePerSecond: deps.ratePerSecond, burst: deps.burst };
  // Spec Limits: floor(1000 / tenantRps) ms, at least 1, the same on every route.
  const backOffMs = String(Math.max(1, Math.floor(1000 / deps.ratePerSecond)));
  // The counters drop a bucket idle for their bucketIdleMs (the spec's 600 s by default).
  return {
    async charge(bucket, organization) {
      let taken: TakeResult;
      try {
        taken = await deps.counters.take(`hub:${bucket}:${organization}`, rate, 1);
      } catch {
        // Shared counters that cannot answer (Redis down) shed the call: buckets fail closed
        // (docs/decisions.md, Redis down), busy rather than an internal error.
        throw new HubError("EIN0081");
      }
      if (!taken.allowed) throw new HubError("EIN0080", { params: [backOffMs] });
    },
  };
}
