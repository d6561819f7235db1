import type { Clock } from "@hub/clock";
import type { Logger } from "pino";
import { addCalls } from "./usage-tally/add-calls.js";
import { addKeyUse } from "./usage-tally/add-key-use.js";
import { flushUsage } from "./usage-tally/flush-usage.js";
import { MINUTE_MS } from "./usage-tally/minute-tally.js";
import { createUsageTallyState, type UsageTallyConfig } from "./usage-tally/usage-tally-state.js";
import type { CallRouteKind, KeyUse, UsageCredentialKind, UsageWriter } from "./usage-tally/usage-writer.js";

export type { UsageTallyConfig } from "./usage-tally/usage-tally-state.js";
export type { CallRouteKind, KeyUse, UsageCredentialKind, UsageWriter } from "./usage-tally/usage-writer.js";

/**
 * Calls per organization, minute, credential kind, route kind and answer code ('' for a success), and
 * per API key and its route kind (the API keys page's words), summed in memory and written once a
 * minute. A failed write keeps the counts for the next one; requests never wait.
 */
export interface UsageTally {
  count(orgId: string, kind: UsageCredentialKind, route: CallRouteKind, code: string, key?: KeyUse): void;
  /** Writes what was counted so far; one write at a time. */
  flush(): Promise<void>;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
}

export function createUsageTally(
  config: UsageTallyConfig,
  deps: { store: UsageWriter; logger: Logger; clock: Clock },
): UsageTally {
  const state = createUsageTallyState(config, deps);
  const timer = setInterval(() => void flushUsage(state), config.flushMs ?? MINUTE_MS);
  timer.unref();

  return {
    count(orgId, kind, route, code, key) {
      const minute = Math.floor(state.clock.now() / MINUTE_MS);
      addCalls(state, minute, orgId, kind, route, code, 1);
      if (key !== undefined) addKeyUse(state, minute, orgId, key, 1);
    },
    flush: () => flushUsage(state),
    async close() {
      clearInterval(timer);
      await state.writing;
      await flushUsage(state);
    },
  };
}
