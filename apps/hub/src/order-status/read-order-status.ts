import type { Clock } from "@hub/clock";
import { HubError, type UpstreamOrderStatus } from "@hub/contract";
import type { Logger } from "pino";
import { applyUpstreamReport } from "../status-rules/apply-upstream-report.js";
import { markUpstreamRefreshFailed } from "../status-rules/mark-upstream-refresh-failed.js";
import { isUpstreamTerminal } from "../status-rules/upstream-state.js";
import type { UpstreamView } from "../status-rules/upstream-view.js";
import type { FollowedOrder, FollowedOrderStore } from "../store/followed-order-store.js";
import type { OifAggregatorClient } from "../upstream/oif-aggregator-client.js";
import { createStatusProjection, type ProjectionEntry } from "./status-projection.js";

export interface OrderStatusReaderDeps {
  store: FollowedOrderStore;
  upstreamOf: (providerId: string) => Pick<OifAggregatorClient, "getOrder"> | undefined;
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

export interface OrderStatusReader {
  read(hubOrderId: string, organization: string, subject: string): Promise<UpstreamOrderStatus>;
  /** Upstream order reads started so far (for metrics and the status benchmark). */
  readonly upstreamReads: number;
}

interface Refreshed {
  organization: string;
  subject: string;
  status: UpstreamOrderStatus;
}

/** A refresh in flight and whose order it is, so that another caller is refused without waiting on it. */
interface Flight {
  organization: string;
  subject: string;
  refreshed: Promise<Refreshed>;
}

function toWire(order: FollowedOrder, view: UpstreamView, lastReadAtMs: number): UpstreamOrderStatus {
  const status: UpstreamOrderStatus = {
    orderId: order.hubOrderId,
    quoteId: order.quoteId,
    ...view,
    updatedAt: new Date(lastReadAtMs).toISOString(),
  };
  if (order.onchainOrderId !== undefined) status.onchainOrderId = order.onchainOrderId;
  return status;
}

const notFound = () => new HubError("EIN0009", { message: "Order not found." });

/**
 * GET /order/{orderId}/status: a 2 s cache in a bounded projection, one refresh in flight per order,
 * and the persisted refreshed_at so that replicas together still read the upstream once per 2 s.
 * Terminal states are served from the projection without asking the upstream again.
 */
export function createOrderStatusReader(deps: OrderStatusReaderDeps): OrderStatusReader {
  const projection = createStatusProjection({
    capacity: deps.projectionCapacity,
    idleEvictMs: deps.projectionIdleEvictMs,
  });
  const inFlight = new Map<string, Flight>();
  let upstreamReads = 0;

  async function readUpstream(order: FollowedOrder, nowMs: number): Promise<UpstreamOrderStatus> {
    const previous = order.view;
    const client = deps.upstreamOf(order.upstreamProviderId);
    let view: UpstreamView | undefined;
    let lastReadAtMs = order.lastReadAtMs ?? nowMs;
    if (client && order.upstreamOrderId !== undefined) {
      upstreamReads += 1;
      const outcome = await client.getOrder(
        order.upstreamOrderId,
        AbortSignal.timeout(deps.refreshTimeoutMs),
      );
      if (outcome.kind === "found") {
        const readAt = deps.clock.now();
        const applied = applyUpstreamReport(
          previous,
          { status: outcome.order.status, fillTransaction: outcome.order.fillTransaction },
          new Date(readAt),
        );
        if (!applied.view)
          throw new HubError("EIN0007", { message: "The upstream report cannot be applied." });
        if (applied.applied) lastReadAtMs = readAt;
        else
          deps.logger.warn(
            { hubOrderId: order.hubOrderId, rejection: applied.rejection },
            "upstream report refused",
          );
        view = applied.view;
      } else {
        deps.logger.debug(
          { hubOrderId: order.hubOrderId, outcome: outcome.kind },
          "upstream status refresh failed",
        );
      }
    }
    if (!view) {
      if (!previous) throw new HubError("EIN0050");
      view = markUpstreamRefreshFailed(previous);
    }
    await deps.store.saveUpstreamView(order.hubOrderId, view, nowMs, lastReadAtMs);
    return toWire(order, view, lastReadAtMs);
  }

  async function refresh(order: FollowedOrder): Promise<Refreshed> {
    const hubOrderId = order.hubOrderId;
    const nowMs = deps.clock.now();
    let status: UpstreamOrderStatus;
    let refreshedAtMs = nowMs;
    const stored = order.view;
    if (
      stored &&
      order.refreshedAtMs !== undefined &&
      (nowMs - order.refreshedAtMs < deps.cacheMs || isUpstreamTerminal(stored.state))
    ) {
      status = toWire(order, stored, order.lastReadAtMs ?? order.refreshedAtMs);
      refreshedAtMs = order.refreshedAtMs;
    } else {
      status = await readUpstream(order, nowMs);
    }
    const refreshed = { organization: order.organization, subject: order.subject, status };
    projection.put(hubOrderId, { ...refreshed, refreshedAtMs, lastServedAtMs: nowMs }, nowMs);
    return refreshed;
  }

  const servable = (entry: ProjectionEntry, nowMs: number) =>
    nowMs - entry.refreshedAtMs < deps.cacheMs || isUpstreamTerminal(entry.status.state);

  async function joinOrStartRefresh(hubOrderId: string, organization: string, subject: string) {
    const running = inFlight.get(hubOrderId);
    if (running) return running;
    const order = await deps.store.readFollowedOrder(hubOrderId);
    if (!order || order.organization !== organization || order.subject !== subject) throw notFound();
    const raced = inFlight.get(hubOrderId);
    if (raced) return raced;
    const refreshedMeanwhile = projection.get(hubOrderId);
    if (refreshedMeanwhile && servable(refreshedMeanwhile, deps.clock.now())) {
      return { organization, subject, refreshed: Promise.resolve(refreshedMeanwhile) };
    }
    const started: Flight = {
      organization,
      subject,
      refreshed: refresh(order).finally(() => inFlight.delete(hubOrderId)),
    };
    inFlight.set(hubOrderId, started);
    return started;
  }

  return {
    async read(hubOrderId, organization, subject) {
      const nowMs = deps.clock.now();
      const entry = projection.get(hubOrderId);
      if (entry) {
        if (entry.organization !== organization || entry.subject !== subject) throw notFound();
        entry.lastServedAtMs = nowMs;
        if (servable(entry, nowMs)) return entry.status;
      } else if (!projection.hasRoom(hubOrderId, nowMs)) {
        throw new HubError("EIN0081");
      }
      // Ownership is checked before any upstream read: another caller's order costs what an unknown id costs.
      const flight = await joinOrStartRefresh(hubOrderId, organization, subject);
      if (flight.organization !== organization || flight.subject !== subject) throw notFound();
      return (await flight.refreshed).status;
    },
    get upstreamReads() {
      return upstreamReads;
    },
  };
}
