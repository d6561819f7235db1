import type { Counters } from "@hub/counters";

/**
 * Failed attempts at a secret (a password, a two-factor code) allowed in one fixed window, counted
 * three ways (docs/decisions.md, "Sign-in attempts"):
 * - `perAccountAddress`: one account from one client address: the limit a guesser meets first;
 * - `perAddress`: one client address over every account (password spraying);
 * - `perAccount`: one account from every address together, a high backstop against guessing from many
 *   addresses; to lock a member out from elsewhere an attacker needs `perAccount / perAccountAddress`
 *   addresses, and the lock ends with the window.
 */
export interface AttemptRule {
  perAccountAddress: number;
  perAddress: number;
  perAccount: number;
  windowMs: number;
}

/** An attempt allowed: the secret may be checked now; `succeeded` takes the attempt back. */
export interface AttemptReserved {
  allowed: true;
  /** The secret was right: the attempt no longer counts (only failures lock). */
  succeeded(): Promise<void>;
}

export interface AttemptRefused {
  allowed: false;
  /** When the window that refused ends (epoch ms). */
  lockedUntilMs: number;
}

export interface AttemptLimiter {
  /**
   * Counts one attempt of `scope` ("sign-in", "password-change", "code", ...) at `account` from
   * `address` before the secret is checked, atomically: of concurrent attempts only those within the
   * limits are allowed, and a refused one is not counted.
   */
  reserve(scope: string, account: string, address: string): Promise<AttemptReserved | AttemptRefused>;
}

export const defaultAttemptRule: AttemptRule = {
  perAccountAddress: 5,
  perAddress: 20,
  perAccount: 100,
  windowMs: 15 * 60_000,
};

/** The limiter on shared counters (Redis across replicas, so every replica sees every attempt). */
export function createAttemptLimiter(rule: AttemptRule, counters: Counters): AttemptLimiter {
  return {
    async reserve(scope, account, address) {
      const counted = [
        { key: `dashboard:${scope}:pair:${account}|${address}`, limit: rule.perAccountAddress },
        { key: `dashboard:${scope}:address:${address}`, limit: rule.perAddress },
        { key: `dashboard:${scope}:account:${account}`, limit: rule.perAccount },
      ];
      const hits = await Promise.all(
        counted.map(async ({ key, limit }) => ({ key, limit, hit: await counters.hit(key, rule.windowMs) })),
      );
      const releaseAll = () =>
        Promise.all(hits.map(({ key, hit }) => counters.release(key, rule.windowMs, hit.windowEndMs))).then(
          () => undefined,
        );
      const over = hits.filter(({ hit, limit }) => hit.count > limit).map(({ hit }) => hit);
      if (over.length > 0) {
        await releaseAll();
        return { allowed: false, lockedUntilMs: Math.max(...over.map((hit) => hit.windowEndMs)) };
      }
      return { allowed: true, succeeded: releaseAll };
    },
  };
}
