/** A token bucket's size and refill: `burst` tokens at most, `ratePerSecond` tokens back each second. */
export interface BucketRule {
  readonly ratePerSecond: number;
  readonly burst: number;
}

/** What one take from a bucket decided, in the terms the RateLimit headers and back-off hints need. */
export interface TakeResult {
  readonly allowed: boolean;
  /** The bucket's size (RateLimit-Limit). */
  readonly limit: number;
  /** Whole tokens left after this take (RateLimit-Remaining). */
  readonly remaining: number;
  /** Seconds until the bucket is full again (RateLimit-Reset). */
  readonly resetSeconds: number;
  /** Milliseconds until this take would be allowed; 0 when it was. */
  readonly retryAfterMs: number;
}

/** A fixed window's count and the instant (epoch ms) the window ends. */
export interface WindowCount {
  readonly count: number;
  readonly windowEndMs: number;
}

/** Events within the last window, counted up to a limit, and when the count falls below the limit. */
export interface SlidingCount {
  /** Events in the last `windowMs`, at most `limit`. */
  readonly count: number;
  /** When the count falls below `limit` with no new event (epoch ms); now when it already is below. */
  readonly belowLimitAtMs: number;
}

/**
 * Shared counters: token buckets for rate pools, fixed windows and sliding windows for lockouts. In memory for one
 * process, in Redis across replicas; both give the same answers for the same clock.
 */
export interface Counters {
  /** Takes `cost` tokens (default 1) from the bucket at `key`; cost 0 reads the bucket without spending. */
  take(key: string, rule: BucketRule, cost?: number): Promise<TakeResult>;
  /** Counts one event in the current fixed window of `windowMs` at `key`. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /**
   * Takes back one event counted by `hit` in the window that ends at `windowEndMs` (as `hit` answered):
   * nothing when that window is over or its count is already 0.
   */
  release(key: string, windowMs: number, windowEndMs: number): Promise<void>;
  /** The current window's count at `key` without counting. */
  peek(key: string, windowMs: number): Promise<WindowCount>;
  /** Records one event at `key` now and counts those of the last `windowMs` (a sliding log of the newest `limit`). */
  hitSliding(key: string, windowMs: number, limit: number): Promise<SlidingCount>;
  /** The sliding count at `key` without recording an event. */
  peekSliding(key: string, windowMs: number, limit: number): Promise<SlidingCount>;
}
