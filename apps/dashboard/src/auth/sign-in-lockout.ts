import type { Counters } from "@hub/counters";

export interface SignInLockoutRule {
  /** Failed sign-ins in one window that lock the account and the IP. */
  failures: number;
  windowMs: number;
}

export interface SignInLockout {
  /** The end of the lock (epoch ms) when the account or the IP is locked; undefined otherwise. */
  lockedUntil(email: string, ip: string): Promise<number | undefined>;
  recordFailure(email: string, ip: string): Promise<void>;
}

/**
 * Failed sign-ins counted per account and per IP in fixed windows shared through the counters (Redis
 * across replicas): at `failures` in a window, both stay locked until the window ends.
 */
export function createSignInLockout(rule: SignInLockoutRule, counters: Counters): SignInLockout {
  const keys = (email: string, ip: string) => [
    `dashboard:sign-in:account:${email}`,
    `dashboard:sign-in:ip:${ip}`,
  ];
  return {
    async lockedUntil(email, ip) {
      const counts = await Promise.all(keys(email, ip).map((key) => counters.peek(key, rule.windowMs)));
      const locked = counts.filter((count) => count.count >= rule.failures);
      return locked.length === 0 ? undefined : Math.max(...locked.map((count) => count.windowEndMs));
    },
    async recordFailure(email, ip) {
      await Promise.all(keys(email, ip).map((key) => counters.hit(key, rule.windowMs)));
    },
  };
}
