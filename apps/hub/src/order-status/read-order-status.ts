import { HubError, type UpstreamOrderStatus } from "@hub/contract";
import { joinOrStartRefresh } from "./join-or-start-refresh.js";
import {
  createOrderStatusReaderState,
  notFound,
  type OrderStatusReaderDeps,
  servable,
} from "./order-status-reader-state.js";

export type { OrderStatusReaderDeps } from "./order-status-reader-state.js";

export interface OrderStatusReader {
  read(hubOrderId: string, organization: string, subject: string): Promise<UpstreamOrderStatus>;
  /** Upstream order reads started so far (for metrics and the status benchmark). */
  readonly upstreamReads: number;
}

/**
 * GET /order/{orderId}/status: a 2 s cache in a bounded projection, one refresh in flight per order,
 * and the persisted refreshed_at so that replicas together still read the upstream once per 2 s.
 * Terminal states are served from the projection without asking the upstream again.
 */
export function createOrderStatusReader(deps: OrderStatusReaderDeps): OrderStatusReader {
  const state = createOrderStatusReaderState(deps);
  const { projection } = state;
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
      const flight = await joinOrStartRefresh(state, hubOrderId, organization, subject);
      if (flight.organization !== organization || flight.subject !== subject) throw notFound();
      return (await flight.refreshed).status;
    },
    get upstreamReads() {
      return state.upstreamReads;
    },
  };
}
