import type { Clock } from "@hub/clock";
import type { Registry } from "prom-client";
import type { OperationsStore } from "../store/operations-store.js";
import { registerPendingReservationGauges } from "./pending-reservation-gauges.js";
import { registerReconcilerEventMetrics } from "./reconciler-event-metrics.js";
import { registerReconcilerProgressGauges } from "./reconciler-progress-gauges.js";
import type { ReconcilerView } from "./reconciler-view.js";
import { createUpstreamTrafficMetrics, type UpstreamTrafficMetrics } from "./upstream-traffic-metrics.js";

/** The samples an operator alerts on, besides the request counts of hub-metrics.ts. */
export type OperationsMetrics = UpstreamTrafficMetrics;

export interface OperationsMetricsSources {
  clock: Clock;
  /** Pending reservations are read from the database at each scrape; absent without a database. */
  store?: OperationsStore;
  quotesInFlight: () => number;
  /** Calls in flight to one provider (quotes and submissions). */
  upstreamInFlight: (providerId: string) => number;
  providerIds: readonly string[];
  /** The reconciler's view of its chains; absent when no reconciler runs in this process. */
  reconciler?: ReconcilerView;
  /** A chain with no successful pass for longer than this is stale (hub_reconciler_chain_stale); default 120 s. */
  chainStaleAfterMs?: number;
}

export function createOperationsMetrics(
  registry: Registry,
  sources: OperationsMetricsSources,
): OperationsMetrics {
  const { clock, store, reconciler } = sources;
  if (store) registerPendingReservationGauges(registry, store, clock);
  if (reconciler) {
    registerReconcilerProgressGauges(registry, reconciler, clock, sources.chainStaleAfterMs ?? 120_000);
    registerReconcilerEventMetrics(registry, reconciler);
  }
  return createUpstreamTrafficMetrics(registry, sources);
}
