import type { Cancellation } from "@hub/contract";

/** Deadlines for hub calls: each call gets its own deadline, fired only if the call is still running then. */
export interface Deadlines {
  /**
   * Runs `send` with a deadline that is aborted once `timeoutMs` has passed (rounded up to the next
   * slot) if the call has not settled by then, and settles with its answer, or with `TIMED_OUT` when the
   * deadline comes first.
   */
  race<T>(timeoutMs: number, send: (deadline: Cancellation) => Promise<T>): Promise<T | typeof TIMED_OUT>;
}

/** What a call's race settles with when its deadline comes first. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

/**
 * One call's deadline. Its AbortController is made only when the call's work reads `signal` (the quote
 * and submission routes do, the reads do not) or never: most calls settle long before their deadline.
 */
class CallDeadline implements Cancellation {
  aborted = false;
  private controller: AbortController | undefined;

  constructor(readonly settle: (value: typeof TIMED_OUT) => void) {}

  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }

  expire(): void {
    this.aborted = true;
    this.controller?.abort();
    this.settle(TIMED_OUT);
  }
}

/**
 * One timer per slot (`slotMs`) and timeout instead of one per call: a timer set and cleared on every
 * call cost more than the gateway's checks. A call is cut no earlier than its timeout and at most
 * `slotMs` later; calls that settled before are never aborted.
 */
export function createDeadlines(config: { slotMs?: number } = {}): Deadlines {
  const slotMs = config.slotMs ?? 25;
  const current = new Map<number, { start: number; pending: Set<CallDeadline> }>();

  function slotFor(timeoutMs: number): Set<CallDeadline> {
    const nowMs = Date.now();
    const start = nowMs - (nowMs % slotMs);
    const open = current.get(timeoutMs);
    if (open && open.start === start) return open.pending;
    const pending = new Set<CallDeadline>();
    current.set(timeoutMs, { start, pending });
    const timer = setTimeout(
      () => {
        for (const call of pending) call.expire();
        pending.clear();
      },
      start + slotMs + timeoutMs - nowMs,
    );
    timer.unref();
    return pending;
  }

  return {
    race(timeoutMs, send) {
      const slot = slotFor(timeoutMs);
      return new Promise((resolve, reject) => {
        const call = new CallDeadline(resolve);
        slot.add(call);
        send(call).then(
          (value) => {
            slot.delete(call);
            resolve(value);
          },
          (error: unknown) => {
            slot.delete(call);
            reject(error);
          },
        );
      });
    },
  };
}
