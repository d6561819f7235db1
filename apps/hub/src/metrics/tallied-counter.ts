import { Counter, type Registry } from "prom-client";

/** A counter with two labels, counted on the hot path as plain numbers. */
export interface TalliedCounter {
  inc(first: string, second: string, value?: number): void;
}

interface Series {
  readonly first: string;
  readonly second: string;
  value: number;
}

/**
 * A prom-client counter whose series are written in only when it is scraped: its own `inc` hashes the
 * labels on every call, which a quote round paid a dozen times. Series are listed in the order they
 * were first counted, as prom-client lists them, so the exposition is the same.
 */
export function createTalliedCounter(
  registry: Registry,
  config: { name: string; help: string; labelNames: readonly [string, string] },
): TalliedCounter {
  const series: Series[] = [];
  const byFirst = new Map<string, Map<string, Series>>();
  new Counter({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const { first, second, value } of series) this.labels(first, second).inc(value);
    },
  });
  return {
    inc(first, second, value = 1) {
      let bySecond = byFirst.get(first);
      if (bySecond === undefined) {
        bySecond = new Map();
        byFirst.set(first, bySecond);
      }
      let counted = bySecond.get(second);
      if (counted === undefined) {
        counted = { first, second, value: 0 };
        bySecond.set(second, counted);
        series.push(counted);
      }
      counted.value += value;
    },
  };
}
