import { type OrderStatus, statusOrder } from "../aggregator/oif-order.js";
import type { SolverFaultKnobs } from "../faults/fault-knobs.js";

type ForwardStatus = (typeof statusOrder)[number];

/**
 * What a status read reports for an order in `status` under the solver's knobs: capped at
 * `executed` with the fill hidden (stallAfterExecuted), one state back (backwards, only past
 * `created`) or a state outside the enum (unknown). `tookReportOnce` says the one-shot knob was used.
 */
export function reportedStatus(
  status: OrderStatus,
  knobs: SolverFaultKnobs,
): { status: unknown; hideFill: boolean; tookReportOnce: boolean } {
  const hideFill = knobs.stallAfterExecuted === true;
  let reported: unknown = status;
  const rank = statusOrder.indexOf(status as ForwardStatus);
  if (hideFill && rank > statusOrder.indexOf("executed")) reported = "executed";
  const reportedRank = statusOrder.indexOf(reported as ForwardStatus);
  if (knobs.reportOnce === "unknown") return { status: "postFilled", hideFill, tookReportOnce: true };
  if (knobs.reportOnce === "backwards" && reportedRank > 0)
    return { status: statusOrder[reportedRank - 1], hideFill, tookReportOnce: true };
  return { status: reported, hideFill, tookReportOnce: false };
}
