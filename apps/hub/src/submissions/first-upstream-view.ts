import { applyUpstreamReport } from "../status-rules/apply-upstream-report.js";
import type { UpstreamView } from "../status-rules/upstream-view.js";

/** The first upstream view of an acked order: `created`, read at the ack. */
export function firstUpstreamView(at: Date): UpstreamView {
  const outcome = applyUpstreamReport(undefined, { status: "created" }, at);
  if (!outcome.view) throw new Error("the created state is always readable");
  return outcome.view;
}
