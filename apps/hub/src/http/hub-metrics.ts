import { collectDefaultMetrics, type Metric, Registry } from "prom-client";
import { createRequestTallies } from "./request-tallies.js";

/** Request counts and latency by operationId and answer code; labels never carry a credential or an id. */
export interface HubMetrics {
  readonly registry: Registry;
  observe(operationId: string, code: string, seconds: number): void;
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
  const tallies = createRequestTallies();

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
    () => tallies.counterSamples(),
  );
  scraped(
    "hub_request_duration_seconds",
    "Time from a call's arrival at the hub to its answer, by operationId and code.",
    "histogram",
    () => tallies.histogramSamples("hub_request_duration_seconds"),
  );

  return { registry, observe: tallies.observe };
}
