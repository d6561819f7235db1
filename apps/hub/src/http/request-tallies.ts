const BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

export interface Tally {
  readonly labels: { operation: string; code: string };
  count: number;
  sum: number;
  /** Per bucket, not cumulative; the last slot is +Inf. */
  readonly buckets: number[];
}

/** Request counts and latency per operationId and code, as plain numbers; Prometheus samples on demand. */
export interface RequestTallies {
  observe(operationId: string, code: string, seconds: number): void;
  counterSamples(): { labels: Tally["labels"]; value: number }[];
  histogramSamples(name: string): { metricName: string; labels: object; value: number }[];
  clear(): void;
}

export function createRequestTallies(): RequestTallies {
  const tallies = new Map<string, Map<string, Tally>>();

  function counterSamples(): { labels: Tally["labels"]; value: number }[] {
    const values = [];
    for (const byCode of tallies.values()) {
      for (const tally of byCode.values()) values.push({ labels: tally.labels, value: tally.count });
    }
    return values;
  }

  function histogramSamples(name: string): { metricName: string; labels: object; value: number }[] {
    const values = [];
    for (const byCode of tallies.values()) {
      for (const tally of byCode.values()) {
        let cumulative = 0;
        BUCKETS_SECONDS.forEach((bound, i) => {
          cumulative += tally.buckets[i] as number;
          values.push({
            metricName: `${name}_bucket`,
            labels: { le: bound, ...tally.labels },
            value: cumulative,
          });
        });
        values.push({
          metricName: `${name}_bucket`,
          labels: { le: "+Inf", ...tally.labels },
          value: tally.count,
        });
        values.push({ metricName: `${name}_sum`, labels: tally.labels, value: tally.sum });
        values.push({ metricName: `${name}_count`, labels: tally.labels, value: tally.count });
      }
    }
    return values;
  }

  return {
    observe(operationId, code, seconds) {
      let byCode = tallies.get(operationId);
      if (byCode === undefined) {
        byCode = new Map();
        tallies.set(operationId, byCode);
      }
      let tally = byCode.get(code);
      if (tally === undefined) {
        tally = {
          labels: { operation: operationId, code },
          count: 0,
          sum: 0,
          buckets: new Array(BUCKETS_SECONDS.length + 1).fill(0),
        };
        byCode.set(code, tally);
      }
      tally.count += 1;
      tally.sum += seconds;
      let i = 0;
      while (i < BUCKETS_SECONDS.length && seconds > (BUCKETS_SECONDS[i] as number)) i += 1;
      tally.buckets[i] = (tally.buckets[i] as number) + 1;
    },
    counterSamples,
    histogramSamples,
    clear: () => tallies.clear(),
  };
}
