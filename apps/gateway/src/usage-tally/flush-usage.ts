import { keepUnwritten } from "./keep-unwritten.js";
import { keyUsageRows } from "./key-usage-rows.js";
import { usageRows } from "./usage-rows.js";
import type { UsageTallyState } from "./usage-tally-state.js";

async function writeUsage(state: UsageTallyState): Promise<void> {
  const { logger } = state;
  if (state.dropped > 0) {
    logger.warn(
      { calls: state.dropped, maxOrganizations: state.maxOrganizations },
      "usage of calls past the per-minute bound not counted",
    );
    state.dropped = 0;
  }
  const batch = state.minutes;
  state.minutes = new Map();
  state.currentMinute = -1;
  const rows = usageRows(batch);
  const keyRows = keyUsageRows(batch);
  if (rows.length === 0 && keyRows.length === 0) return;
  try {
    await state.store.addUsage(rows, keyRows);
  } catch (error) {
    logger.warn(
      { err: error, rows: rows.length + keyRows.length },
      "could not write usage counts; retrying with the next flush",
    );
    keepUnwritten(state, rows, keyRows);
  }
}

/** Writes what was counted so far; one write at a time, which a flush during it shares. */
export function flushUsage(state: UsageTallyState): Promise<void> {
  state.writing ??= writeUsage(state).finally(() => {
    state.writing = undefined;
  });
  return state.writing;
}
