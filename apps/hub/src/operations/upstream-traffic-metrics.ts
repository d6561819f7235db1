import type { Clock } from "@hub/clock";
import { Gauge, type Registry } from "prom-client";
import { createTalliedCounter } from "../metrics/tallied-counter.js";
import type { UpstreamCallResult } from "../upstream/upstream-http.js";

/** The hooks the limiters and the provider clients report to. */
export interface UpstreamTrafficMetrics {
  upstreamCall(providerId: string, result: UpstreamCallResult): void;
  shed(limit: "quotes-in-flight" | "outbound", providerId?: string): void;
}

export interface UpstreamTrafficSources {
  clock: Clock;
  quotesInFlight: () => number;
  /** Calls in flight to one provider (quotes and submissions). */
  upstreamInFlight: (providerId: string) => number;
  providerIds: readonly string[];
}

/** Calls in flight, calls made and calls shed, toward the upstream providers. */
export function createUpstreamTrafficMetrics(
  registry: Registry,
  sources: UpstreamTrafficSources,
): UpstreamTrafficMetrics {
  const { clock } = sources;
  const seconds = (ms: number) => ms / 1000;
  new Gauge({
    name: "hub_quotes_in_flight",
    help: "Quote, preview and prepare calls inside the process-wide admission (EIN0081 past HUB_QUOTES_IN_FLIGHT).",
    registers: [registry],
    collect() {
      this.set(sources.quotesInFlight());
    },
  });
  new Gauge({
    name: "hub_upstream_in_flight",
    help: "Calls in flight to one upstream provider, quotes and submissions (EIN0081 past HUB_OUTBOUND_PER_PROVIDER).",
    labelNames: ["provider"] as const,
    registers: [registry],
    collect() {
      for (const id of sources.providerIds) this.labels(id).set(sources.upstreamInFlight(id));
    },
  });

  const calls = createTalliedCounter(registry, {
    name: "hub_upstream_calls_total",
    help: "Calls to upstream providers (quotes, submissions, status reads, probes), by provider and result: the answer's status class (2xx, 3xx, 4xx, 429, 5xx) or why none came (timeout, transport, malformed, aborted).",
    labelNames: ["provider", "result"],
  });
  // Written into the gauge at a scrape, in the order the providers first answered, as before.
  const lastSuccessSeconds = new Map<string, number>();
  new Gauge({
    name: "hub_upstream_last_success_timestamp_seconds",
    help: "When a provider last answered a call with 2xx; time() minus it is the provider's staleness.",
    labelNames: ["provider"] as const,
    registers: [registry],
    collect() {
      for (const [providerId, at] of lastSuccessSeconds) this.labels(providerId).set(at);
    },
  });
  const sheds = createTalliedCounter(registry, {
    name: "hub_sheds_total",
    help: "Calls shed with EIN0081 before anything was sent, by limit (quotes-in-flight, outbound) and provider (empty for quotes-in-flight).",
    labelNames: ["limit", "provider"],
  });
  // Zero series from the start, so rate() and increase() see the first event.
  for (const id of sources.providerIds) {
    for (const result of ["2xx", "5xx", "timeout", "transport"] as const) calls.inc(id, result, 0);
    sheds.inc("outbound", id, 0);
  }
  sheds.inc("quotes-in-flight", "", 0);

  return {
    upstreamCall(providerId, result) {
      calls.inc(providerId, result);
      if (result === "2xx") lastSuccessSeconds.set(providerId, seconds(clock.now()));
    },
    shed(limit, providerId = "") {
      sheds.inc(limit, providerId);
    },
  };
}
