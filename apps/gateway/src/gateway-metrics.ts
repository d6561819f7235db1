import { Counter, Histogram, type Registry } from "prom-client";

/** The gateway's metrics; labels are operation ids, codes and statuses, never a credential. */
export interface GatewayMetrics {
  observe(operation: string, code: string, status: number, seconds: number): void;
}

export function createGatewayMetrics(registry: Registry): GatewayMetrics {
  const answers = new Counter({
    name: "gateway_answers_total",
    help: "Answers by operation, code (OK or hub for passed-through answers) and HTTP status.",
    labelNames: ["operation", "code", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "gateway_answer_seconds",
    help: "Time from request to answer, by operation.",
    labelNames: ["operation"] as const,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    registers: [registry],
  });
  // Labelled children are looked up once per label set, not hashed again on every call.
  const answerCounters = new Map<string, { inc(): void }>();
  const durations = new Map<string, { observe(value: number): void }>();
  return {
    observe(operation, code, status, seconds) {
      const id = `${operation} ${code} ${status}`;
      let counter = answerCounters.get(id);
      if (!counter) {
        counter = answers.labels(operation, code, String(status));
        answerCounters.set(id, counter);
      }
      counter.inc();
      let histogram = durations.get(operation);
      if (!histogram) {
        histogram = duration.labels(operation);
        durations.set(operation, histogram);
      }
      histogram.observe(seconds);
    },
  };
}
