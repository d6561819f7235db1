import type { UpstreamOrderStatus } from "@hub/contract";
import type { UpstreamView } from "../status-rules/upstream-view.js";
import type { FollowedOrder } from "../store/followed-order-store.js";

/** The wire status of a followed order's upstream view, as of its last upstream read. */
export function upstreamOrderStatusOf(
  order: FollowedOrder,
  view: UpstreamView,
  lastReadAtMs: number,
): UpstreamOrderStatus {
  const status: UpstreamOrderStatus = {
    orderId: order.hubOrderId,
    quoteId: order.quoteId,
    ...view,
    updatedAt: new Date(lastReadAtMs).toISOString(),
  };
  if (order.onchainOrderId !== undefined) status.onchainOrderId = order.onchainOrderId;
  return status;
}
