import { HubError, type UpstreamOrderStatus } from "@hub/contract";
import { applyUpstreamReport } from "../status-rules/apply-upstream-report.js";
import { markUpstreamRefreshFailed } from "../status-rules/mark-upstream-refresh-failed.js";
import type { UpstreamView } from "../status-rules/upstream-view.js";
import type { FollowedOrder } from "../store/followed-order-store.js";
import type { OrderStatusReaderState } from "./order-status-reader-state.js";
import { upstreamOrderStatusOf } from "./upstream-order-status-of.js";

/**
 * Asks the upstream (when the order has an upstream id and its provider a client), applies the report
 * to the stored view, or marks the refresh failed, and saves the view with its refresh time.
 */
export async function readUpstreamStatus(
  state: OrderStatusReaderState,
  order: FollowedOrder,
  nowMs: number,
): Promise<UpstreamOrderStatus> {
  const { deps } = state;
  const previous = order.view;
  const client = deps.upstreamOf(order.upstreamProviderId);
  let view: UpstreamView | undefined;
  let lastReadAtMs = order.lastReadAtMs ?? nowMs;
  if (client && order.upstreamOrderId !== undefined) {
    state.upstreamReads += 1;
    const outcome = await client.getOrder(order.upstreamOrderId, AbortSignal.timeout(deps.refreshTimeoutMs));
    if (outcome.kind === "found") {
      const readAt = deps.clock.now();
      const applied = applyUpstreamReport(
        previous,
        { status: outcome.order.status, fillTransaction: outcome.order.fillTransaction },
        new Date(readAt),
      );
      if (!applied.view) throw new HubError("EIN0007", { message: "The upstream report cannot be applied." });
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
  return upstreamOrderStatusOf(order, view, lastReadAtMs);
}
