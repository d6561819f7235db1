import type { UpstreamView } from "./upstream-view.js";

/**
 * A refresh that got no report (timeout, transport error, upstream 5xx): the last good state is served
 * with upstreamStale set. rejectedUpstreamTransition still describes the latest report, so it is kept.
 */
export function markUpstreamRefreshFailed(previous: UpstreamView): UpstreamView {
  return { ...previous, upstreamStale: true };
}
