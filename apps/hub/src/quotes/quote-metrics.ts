import { Histogram, type Registry } from "prom-client";
import { createTalliedCounter } from "../metrics/tallied-counter.js";
import type { QuoteRejectionReason } from "./quote-rejection.js";

/** Counters of quote rounds; labels carry configured provider ids and fixed reasons only. */
export interface QuoteMetrics {
  vettingRejected(providerId: string, reason: QuoteRejectionReason): void;
  providerOutcome(providerId: string, outcome: string): void;
  /** A round's time from asking the sources to their last answer (or the deadline), and whether it had quotes. */
  roundFinished(seconds: number, outcome: "quotes" | "none"): void;
}

export function createQuoteMetrics(registry: Registry): QuoteMetrics {
  const rejections = createTalliedCounter(registry, {
    name: "hub_quote_vetting_rejections_total",
    help: "Upstream quotes discarded by vetting, by configured provider and reason.",
    labelNames: ["provider", "reason"],
  });
  const outcomes = createTalliedCounter(registry, {
    name: "hub_quote_provider_calls_total",
    help: "Quote calls to providers in rounds, by configured provider and outcome kind (quotes, no-quotes, refused, rate-limited, auth-refused, unavailable).",
    labelNames: ["provider", "outcome"],
  });
  const rounds = new Histogram({
    name: "hub_quote_round_duration_seconds",
    help: "Quote rounds from asking the sources to the last answer or the deadline, by outcome (quotes, none).",
    labelNames: ["outcome"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 12, 15, 20],
    registers: [registry],
  });
  return {
    roundFinished: (seconds, outcome) => rounds.labels(outcome).observe(seconds),
    vettingRejected: (providerId, reason) => rejections.inc(providerId, reason),
    providerOutcome: (providerId, outcome) => outcomes.inc(providerId, outcome),
  };
}
