import type { Clock } from "@hub/clock";
import { Gauge, type Registry } from "prom-client";
import type { OperationsStore, PendingReservations } from "../store/operations-store.js";

/** hub_reservations_pending and the oldest one's age, read from the database at each scrape. */
export function registerPendingReservationGauges(
  registry: Registry,
  store: OperationsStore,
  clock: Clock,
): void {
  const seconds = (ms: number) => ms / 1000;
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
