import { Counter, type Registry } from "prom-client";
import type { QuoteRejectionReason } from "./quote-rejection.js";

/** Counters of quote rounds; labels carry configured provider ids and fixed reasons only. */
export interface QuoteMetrics {
  vettingRejected(providerId: string, reason: QuoteRejectionReason): void;
  providerOutcome(providerId: string, outcome: string): void;
}

export function createQuoteMetrics(registry: Registry): QuoteMetrics {
  const rejections = new Counter({
    name: "hub_quote_vetting_rejections_total",
    help: "Upstream quotes discarded by vetting, by configured provider and reason.",
    labelNames: ["provider", "reason"] as const,
    registers: [registry],
  });
  const outcomes = new Counter({
    name: "hub_quote_provider_calls_total",
    help: "Quote calls to providers in rounds, by configured provider and outcome kind (quotes, no-quotes, refused, rate-limited, auth-refused, unavailable).",
    labelNames: ["provider", "outcome"] as const,
    registers: [registry],
  });
  return {
    vettingRejected: (providerId, reason) => rejections.labels(providerId, reason).inc(),
    providerOutcome: (providerId, outcome) => outcomes.labels(providerId, outcome).inc(),
  };
}
