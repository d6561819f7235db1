import type { UpstreamOrderStatus } from "@hub/contract";
import { isUpstreamTerminal } from "../status-rules/upstream-state.js";
import type { FollowedOrder } from "../store/followed-order-store.js";
import {
  type Flight,
  notFound,
  type OrderStatusReaderState,
  type Refreshed,
  servable,
  servedUntilMs,
} from "./order-status-reader-state.js";
import { readUpstreamStatus } from "./read-upstream-status.js";
import { upstreamOrderStatusOf } from "./upstream-order-status-of.js";

/** Serves the stored view while it is fresh or terminal, else reads the upstream; then projects it. */
async function refresh(state: OrderStatusReaderState, order: FollowedOrder): Promise<Refreshed> {
  const { deps } = state;
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
    status = upstreamOrderStatusOf(order, stored, order.lastReadAtMs ?? order.refreshedAtMs);
    refreshedAtMs = order.refreshedAtMs;
  } else {
    status = await readUpstreamStatus(state, order, nowMs);
  }
  const refreshed = { organization: order.organization, subject: order.subject, status };
  const servedUntil = servedUntilMs(state, status, refreshedAtMs);
  state.projection.put(
    hubOrderId,
    { ...refreshed, servedUntilMs: servedUntil, lastServedAtMs: nowMs },
    nowMs,
  );
  return refreshed;
}

/**
 * The refresh in flight for the order, or a new one once the caller is known to own it; one
 * started meanwhile by another read is joined.
 */
export async function joinOrStartRefresh(
  state: OrderStatusReaderState,
  hubOrderId: string,
  organization: string,
  subject: string,
): Promise<Flight> {
  const { deps, inFlight } = state;
  const running = inFlight.get(hubOrderId);
  if (running) return running;
  const order = await deps.store.readFollowedOrder(hubOrderId);
  if (!order || order.organization !== organization || order.subject !== subject) throw notFound();
  const raced = inFlight.get(hubOrderId);
  if (raced) return raced;
  const refreshedMeanwhile = state.projection.get(hubOrderId);
  if (refreshedMeanwhile && servable(refreshedMeanwhile, deps.clock.now())) {
    return { organization, subject, refreshed: Promise.resolve(refreshedMeanwhile) };
  }
  const started: Flight = {
    organization,
    subject,
    refreshed: refresh(state, order).finally(() => inFlight.delete(hubOrderId)),
  };
  inFlight.set(hubOrderId, started);
  return started;
}
