import type { Clock } from "@hub/clock";
import { Counter, Gauge, type Registry } from "prom-client";
import type { ChainIndexState } from "../reconciler/create-reconciler.js";
import type { OperationsStore, PendingReservations } from "../store/operations-store.js";
import type { UpstreamCallResult } from "../upstream/upstream-http.js";
import { createTalliedCounter } from "./tallied-counter.js";

/** The samples an operator alerts on, besides the request counts of hub-metrics.ts. */
export interface OperationsMetrics {
  upstreamCall(providerId: string, result: UpstreamCallResult): void;
  shed(limit: "quotes-in-flight" | "outbound", providerId?: string): void;
}

export interface OperationsMetricsSources {
  clock: Clock;
  /** Pending reservations are read from the database at each scrape; absent without a database. */
  store?: OperationsStore;
  quotesInFlight: () => number;
  /** Calls in flight to one provider (quotes and submissions). */
  upstreamInFlight: (providerId: string) => number;
  providerIds: readonly string[];
  /** The reconciler's view of its chains; absent when no reconciler runs in this process. */
  reconciler?: { readonly leader: boolean; chainStates(): ChainIndexState[] };
}

export function createOperationsMetrics(
  registry: Registry,
  sources: OperationsMetricsSources,
): OperationsMetrics {
  const { clock, store, reconciler } = sources;
  const seconds = (ms: number) => ms / 1000;

  if (store) {
    // prom-client collects every metric of a scrape at once: both gauges share one read.
    let reading: Promise<PendingReservations[] | undefined> | undefined;
    const readPending = () => {
      reading ??= store
        .pendingReservations()
        .catch(() => undefined)
        .finally(() => {
          reading = undefined;
        });
      return reading;
    };
    const pendingGauge = (name: string, help: string, value: (pending: PendingReservations) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ["state"] as const,
        registers: [registry],
        async collect() {
          // A database that does not answer leaves the gauge out of the scrape.
          const pending = await readPending();
          this.reset();
          for (const entry of pending ?? []) this.labels(entry.state).set(value(entry));
        },
      });
    pendingGauge(
      "hub_reservations_pending",
      "Submission reservations in forwarding or unknown (each one answers EIN0052 until reconciled), by state.",
      (entry) => entry.count,
    );
    pendingGauge(
      "hub_reservation_oldest_age_seconds",
      "Age of the oldest reservation in forwarding or unknown, by state (0 when none).",
      (entry) => (entry.oldestReservedAt ? seconds(clock.now() - entry.oldestReservedAt.getTime()) : 0),
    );
  }

  if (reconciler) {
    const chainGauge = (name: string, help: string, value: (state: ChainIndexState) => number | undefined) =>
      new Gauge({
        name,
        help,
        labelNames: ["chain"] as const,
        registers: [registry],
        collect() {
          this.reset();
          // Only the leader indexes; a follower's view would be stale, so it reports nothing.
          if (!reconciler.leader) return;
          for (const state of reconciler.chainStates()) {
            const sample = value(state);
            if (sample !== undefined) this.labels(state.chainDomain).set(sample);
          }
        },
      });
    chainGauge(
      "hub_reconciler_lag_blocks",
      "Blocks between the chain's safe head and the reconciler's watermark, per chain (leader only).",
      (state) =>
        state.safeHead === undefined || state.indexedBlock === undefined
          ? undefined
          : Math.max(0, state.safeHead - state.indexedBlock),
    );
    chainGauge(
      "hub_reconciler_indexed_block",
      "The reconciler's watermark: the last block indexed, per chain (leader only).",
      (state) => state.indexedBlock,
    );
    chainGauge(
      "hub_reconciler_caught_up_timestamp_seconds",
      "When the reconciler last indexed the chain up to its safe head, per chain (leader only).",
      (state) => (state.caughtUpAtMs === undefined ? undefined : seconds(state.caughtUpAtMs)),
    );
    new Gauge({
      name: "hub_reconciler_leader",
      help: "1 when this process holds the reconciler lease (indexes the chains), else 0.",
      registers: [registry],
      collect() {
        this.set(reconciler.leader ? 1 : 0);
      },
    });
    new Counter({
      name: "hub_reconciler_errors_total",
      help: "Reconciler ticks in which a chain could not be indexed, per chain.",
      labelNames: ["chain"] as const,
      registers: [registry],
      collect() {
        this.reset();
        for (const state of reconciler.chainStates()) this.labels(state.chainDomain).inc(state.errors);
      },
    });
  }

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
