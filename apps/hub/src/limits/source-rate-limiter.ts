import type { Clock } from "@hub/clock";

interface Bucket {
  tokens: number;
  updatedMs: number;
}

/** A per-source token bucket kept in this process (the hub's per-IP limiter, a DDoS guard). */
export interface SourceRateLimiter {
  /** True when the source may make one more call now. */
  allow(source: string): boolean;
}

export function createSourceRateLimiter(deps: {
  ratePerSecond: number;
  burst: number;
  clock: Clock;
}): SourceRateLimiter {
  const { ratePerSecond, burst, clock } = deps;
  const buckets = new Map<string, Bucket>();
  const refillMs = (burst / ratePerSecond) * 1000;
  let sweptMs = clock.now();

  function sweep(now: number): void {
    // A bucket idle long enough to be full again holds no state worth keeping.
    for (const [source, bucket] of buckets) {
      if (now - bucket.updatedMs >= refillMs) buckets.delete(source);
    }
    sweptMs = now;
  }

  return {
    allow(source) {
      const now = clock.now();
      if (now - sweptMs >= Math.max(refillMs, 10_000)) sweep(now);
      let bucket = buckets.get(source);
      if (bucket === undefined) {
        bucket = { tokens: burst, updatedMs: now };
        buckets.set(source, bucket);
      } else if (now > bucket.updatedMs) {
        bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.updatedMs) * ratePerSecond) / 1000);
        bucket.updatedMs = now;
      }
      if (bucket.tokens < 1) return false;
      bucket.tokens -= 1;
      return true;
    },
  };
}
