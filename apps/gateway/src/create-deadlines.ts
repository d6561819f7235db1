/** Deadlines for hub calls: each call gets its own signal, fired only if the call is still running at its deadline. */
export interface Deadlines {
  /**
   * Runs `send` with a signal that fires once `timeoutMs` has passed (rounded up to the next slot) if
   * the call has not settled by then, and settles with its answer, or with `TIMED_OUT` when the
   * deadline comes first.
   */
  race<T>(timeoutMs: number, send: (signal: AbortSignal) => Promise<T>): Promise<T | typeof TIMED_OUT>;
}

/** What a call's race settles with when its deadline comes first. */
export const TIMED_OUT: unique symbol = Symbol("timed out");

interface Pending {
  readonly controller: AbortController;
  readonly settle: (value: typeof TIMED_OUT) => void;
}

/**
 * One timer per slot (`slotMs`) and timeout instead of one per call: a timer set and cleared on every
 * call cost more than the gateway's checks. A call is cut no earlier than its timeout and at most
 * `slotMs` later; calls that settled before are never aborted.
 */
export function createDeadlines(config: { slotMs?: number } = {}): Deadlines {
  const slotMs = config.slotMs ?? 25;
  const current = new Map<number, { start: number; pending: Set<Pending> }>();

  function slotFor(timeoutMs: number): Set<Pending> {
    const nowMs = Date.now();
    const start = nowMs - (nowMs % slotMs);
    const open = current.get(timeoutMs);
    if (open && open.start === start) return open.pending;
    const pending = new Set<Pending>();
    current.set(timeoutMs, { start, pending });
    const timer = setTimeout(
      () => {
        for (const call of pending) {
          call.controller.abort();
          call.settle(TIMED_OUT);
        }
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
      const controller = new AbortController();
      return new Promise((resolve, reject) => {
        const call: Pending = { controller, settle: resolve };
        slot.add(call);
        send(controller.signal).then(
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
