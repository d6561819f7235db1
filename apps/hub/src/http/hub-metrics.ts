import { collectDefaultMetrics, type Metric, Registry } from "prom-client";

/** Request counts and latency by operationId and answer code; labels never carry a credential or an id. */
export interface HubMetrics {
  readonly registry: Registry;
  observe(operationId: string, code: string, seconds: number): void;
}

const BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

interface Tally {
  readonly labels: { operation: string; code: string };
  count: number;
  sum: number;
  /** Per bucket, not cumulative; the last slot is +Inf. */
  readonly buckets: number[];
}

/**
 * Plain tallies per call, turned into Prometheus samples only when scraped. prom-client's own
 * counter and histogram hash their labels on every observation, which cost more than the rest of a
 * catalog call in measurement; the exposition format is the same.
 */
export function createHubMetrics(): HubMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` refuses; each is the sum of the
  // labelled gauge beside it (nodejs_active_handles{type} and so on).
  for (const name of [
    "nodejs_active_handles_total",
    "nodejs_active_requests_total",
    "nodejs_active_resources_total",
  ])
    registry.removeSingleMetric(name);
  const tallies = new Map<string, Map<string, Tally>>();

  function counterSamples() {
    const values = [];
    for (const byCode of tallies.values()) {
      for (const tally of byCode.values()) values.push({ labels: tally.labels, value: tally.count });
    }
    return values;
  }

  function histogramSamples(name: string) {
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

  function scraped(name: string, help: string, type: "counter" | "histogram", samples: () => unknown[]) {
    const metric = {
      name,
      help,
      type,
      aggregator: "sum",
      get: async () => ({ name, help, type, values: samples(), aggregator: "sum" }),
      reset: () => tallies.clear(),
    };
    registry.registerMetric(metric as unknown as Metric);
  }

  scraped(
    "hub_requests_total",
    "Calls answered by the hub, by operationId and code (OK on success).",
    "counter",
    counterSamples,
  );
  scraped(
    "hub_request_duration_seconds",
    "Time from a call's arrival at the hub to its answer, by operationId and code.",
    "histogram",
    () => histogramSamples("hub_request_duration_seconds"),
  );

  return {
    registry,
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
  };
}
