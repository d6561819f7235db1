import type { Clock } from "@hub/clock";
import { HubError, type UpstreamOrderStatus } from "@hub/contract";
import type { Logger } from "pino";
import type { OrderReader } from "../providers/provider-kind.js";
import { isUpstreamTerminal } from "../status-rules/upstream-state.js";
import type { FollowedOrderStore } from "../store/followed-order-store.js";
import { createStatusProjection, type ProjectionEntry, type StatusProjection } from "./status-projection.js";

export interface OrderStatusReaderDeps {
  store: FollowedOrderStore;
  upstreamOf: (providerId: string) => OrderReader | undefined;
  clock: Clock;
  logger: Pick<Logger, "debug" | "warn">;
  /** How long a read is served without asking the upstream (the spec's 2 s). */
  cacheMs: number;
  /** Orders the in-memory projection holds; a read that would add one more answers EIN0081. */
  projectionCapacity: number;
  /** An entry unread this long may leave a full projection (its view stays in the database). */
  projectionIdleEvictMs: number;
  refreshTimeoutMs: number;
}

export interface Refreshed {
  organization: string;
  subject: string;
  status: UpstreamOrderStatus;
}

/** A refresh in flight and whose order it is, so that another caller is refused without waiting on it. */
export interface Flight {
  organization: string;
  subject: string;
  refreshed: Promise<Refreshed>;
}

/** What the reader keeps between reads: the projection, the refreshes in flight, the upstream reads made. */
export interface OrderStatusReaderState {
  readonly deps: OrderStatusReaderDeps;
  readonly projection: StatusProjection;
  readonly inFlight: Map<string, Flight>;
  upstreamReads: number;
}

export function createOrderStatusReaderState(deps: OrderStatusReaderDeps): OrderStatusReaderState {
  return {
    deps,
    projection: createStatusProjection({
      capacity: deps.projectionCapacity,
      idleEvictMs: deps.projectionIdleEvictMs,
    }),
    inFlight: new Map(),
    upstreamReads: 0,
  };
}

/** Until when a refreshed status is served without another refresh: the cache time, or for good once terminal. */
export function servedUntilMs(
  state: OrderStatusReaderState,
  status: UpstreamOrderStatus,
  refreshedAtMs: number,
): number {
  return isUpstreamTerminal(status.state) ? Number.POSITIVE_INFINITY : refreshedAtMs + state.deps.cacheMs;
}

/** A projected status is served without a refresh while it is fresh, or for good once terminal. */
export function servable(entry: ProjectionEntry, nowMs: number): boolean {
  return nowMs < entry.servedUntilMs;
}

export const notFound = () => new HubError("EIN0009", { message: "Order not found." });
