/**
 * How long each provider took to answer a quote call lately, so that a round alone asks the slowest
 * first, and how many rounds have calls out now.
 */
export interface ProviderPace {
  /** The provider's recent answer time in milliseconds; undefined before its first answer. */
  of(providerId: string): number | undefined;
  /** One call's time from its start to its outcome. */
  answered(providerId: string, ms: number): void;
  /** Counts a round as asking until `done` runs; `others` is how many other rounds were asking. */
  asking(): { others: number; done: () => void };
}

/** A moving average per provider: each call moves it an eighth of the way to the call's time. */
export function createProviderPace(): ProviderPace {
  const recentMs = new Map<string, number>();
  let rounds = 0;
  return {
    of: (providerId) => recentMs.get(providerId),
    answered(providerId, ms) {
      const before = recentMs.get(providerId);
      recentMs.set(providerId, before === undefined ? ms : before + (ms - before) / 8);
    },
    asking() {
      const others = rounds;
      rounds += 1;
      let counted = true;
      return {
        others,
        done: () => {
          if (counted) rounds -= 1;
          counted = false;
        },
      };
    },
  };
}

/**
 * The provider to ask before the others: the one whose answers came slowest lately (the first
 * configured of equals); undefined while a provider of the round has not answered yet or all are alike.
 */
export function slowestProvider(pace: ProviderPace, providerIds: readonly string[]): string | undefined {
  let slowest: string | undefined;
  let slowestMs = -1;
  let fastestMs = Number.POSITIVE_INFINITY;
  for (const providerId of providerIds) {
    const ms = pace.of(providerId);
    if (ms === undefined) return undefined;
    if (ms > slowestMs) {
      slowest = providerId;
      slowestMs = ms;
    }
    fastestMs = Math.min(fastestMs, ms);
  }
  return slowestMs > fastestMs ? slowest : undefined;
}
