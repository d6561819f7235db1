import type { Metric, Registry } from "prom-client";

/** The gateway's metrics; labels are operation ids, codes and statuses, never a credential. */
export interface GatewayMetrics {
  observe(operation: string, code: string, status: number, seconds: number): void;
}

const BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20];

interface AnswerTally {
  readonly labels: { operation: string; code: string; status: string };
  count: number;
}

interface DurationTally {
  readonly labels: { operation: string };
  count: number;
  sum: number;
  /** Per bucket, not cumulative; the last slot is +Inf. */
  readonly buckets: number[];
}

type AnswerTallies = Map<string, Map<string, Map<number, AnswerTally>>>;

function answerSamples(answers: AnswerTallies) {
  const values = [];
  for (const byCode of answers.values()) {
    for (const byStatus of byCode.values()) {
      for (const tally of byStatus.values()) values.push({ labels: tally.labels, value: tally.count });
    }
  }
  return values;
}

function durationSamples(durations: Map<string, DurationTally>, name: string) {
  const values = [];
  for (const tally of durations.values()) {
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
  return values;
}

function registerScraped(
  registry: Registry,
  name: string,
  help: string,
  type: "counter" | "histogram",
  samples: () => unknown[],
  reset: () => void,
): void {
  const metric = {
    name,
    help,
    type,
    aggregator: "sum",
    get: async () => ({ name, help, type, values: samples(), aggregator: "sum" }),
    reset,
  };
  registry.registerMetric(metric as unknown as Metric);
}

function countAnswer(answers: AnswerTallies, operation: string, code: string, status: number): void {
  let byCode = answers.get(operation);
  if (byCode === undefined) {
    byCode = new Map();
    answers.set(operation, byCode);
  }
  let byStatus = byCode.get(code);
  if (byStatus === undefined) {
    byStatus = new Map();
    byCode.set(code, byStatus);
  }
  let answer = byStatus.get(status);
  if (answer === undefined) {
    answer = { labels: { operation, code, status: String(status) }, count: 0 };
    byStatus.set(status, answer);
  }
  answer.count += 1;
}

function timeAnswer(durations: Map<string, DurationTally>, operation: string, seconds: number): void {
  let duration = durations.get(operation);
  if (duration === undefined) {
    duration = {
      labels: { operation },
      count: 0,
      sum: 0,
      buckets: new Array(BUCKETS_SECONDS.length + 1).fill(0),
    };
    durations.set(operation, duration);
  }
  duration.count += 1;
  duration.sum += seconds;
  let i = 0;
  while (i < BUCKETS_SECONDS.length && seconds > (BUCKETS_SECONDS[i] as number)) i += 1;
  duration.buckets[i] = (duration.buckets[i] as number) + 1;
}

/**
 * Plain tallies per call, turned into Prometheus samples only when scraped: prom-client's labelled
 * children validate and hash their labels on every observation. The exposition format is the same.
 */
export function createGatewayMetrics(registry: Registry): GatewayMetrics {
  // By operation, code and status: the operation ids and codes are the same strings on every call, so
  // their hashes are kept, where a key string built per call would be hashed anew.
  const answers: AnswerTallies = new Map();
  const durations = new Map<string, DurationTally>();

  registerScraped(
    registry,
    "gateway_answers_total",
    "Answers by operation, code (OK or hub for passed-through answers) and HTTP status.",
    "counter",
    () => answerSamples(answers),
    () => answers.clear(),
  );
  registerScraped(
    registry,
    "gateway_answer_seconds",
    "Time from request to answer, by operation.",
    "histogram",
    () => durationSamples(durations, "gateway_answer_seconds"),
    () => durations.clear(),
  );

  return {
    observe(operation, code, status, seconds) {
      countAnswer(answers, operation, code, status);
      timeAnswer(durations, operation, seconds);
    },
  };
}
