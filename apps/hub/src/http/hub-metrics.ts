import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** Request counts and latency by operationId and answer code; labels never carry a credential or an id. */
export interface HubMetrics {
  readonly registry: Registry;
  observe(operationId: string, code: string, seconds: number): void;
}

export function createHubMetrics(): HubMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: "hub_requests_total",
    help: "Calls answered by the hub, by operationId and code (OK on success).",
    labelNames: ["operation", "code"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "hub_request_duration_seconds",
    help: "Time from a call's arrival at the hub to its answer, by operationId and code.",
    labelNames: ["operation", "code"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [registry],
  });
  // Children cached per label pair: a label lookup hashes its labels on every call otherwise.
  const children = new Map<string, { count: { inc(): void }; time: { observe(v: number): void } }>();
  return {
    registry,
    observe(operationId, code, seconds) {
      const key = `${operationId} ${code}`;
      let child = children.get(key);
      if (child === undefined) {
        child = { count: requests.labels(operationId, code), time: duration.labels(operationId, code) };
        children.set(key, child);
      }
      child.count.inc();
      child.time.observe(seconds);
    },
  };
}
