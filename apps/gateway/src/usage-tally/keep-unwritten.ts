import { addCalls } from "./add-calls.js";
import { addKeyUse } from "./add-key-use.js";
import type { keyUsageRows } from "./key-usage-rows.js";
import { MINUTE_MS } from "./minute-tally.js";
import type { usageRows } from "./usage-rows.js";
import type { UsageTallyState } from "./usage-tally-state.js";

/** Puts the rows of a failed write back for the next one, dropping the oldest minutes past the bound. */
export function keepUnwritten(
  state: UsageTallyState,
  rows: ReturnType<typeof usageRows>,
  keyRows: ReturnType<typeof keyUsageRows>,
): void {
  for (const row of rows) {
    addCalls(
      state,
      row.minute.getTime() / MINUTE_MS,
      row.orgId,
      row.credentialKind,
      row.routeKind,
      row.code,
      row.count,
    );
  }
  for (const row of keyRows) {
    addKeyUse(state, row.minute.getTime() / MINUTE_MS, row.orgId, row, row.count);
  }
  const excess = state.minutes.size - state.maxPendingMinutes;
  if (excess > 0) {
    const oldest = [...state.minutes.keys()].sort((a, b) => a - b).slice(0, excess);
    for (const minute of oldest) state.minutes.delete(minute);
    state.currentMinute = -1;
    state.logger.warn({ minutes: excess }, "usage counts of the oldest unwritten minutes dropped");
  }
}
