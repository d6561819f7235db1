import { HubError } from "./errors.js";
import type { SubmittedOrder } from "./submit.js";
import { sleep, type Transport } from "./transport.js";
import type { HubOrderStatus, OnchainFill, UpstreamOrderStatus, UpstreamState } from "./types.js";

/** What `track` yields: each new state of a view, and the hand-off from the upstream view to the fill view. */
export type TrackEvent =
  | { view: "upstream"; status: UpstreamOrderStatus }
  | { view: "hub"; status: HubOrderStatus }
  | { view: "fill"; fill: OnchainFill }
  | { view: "handoff"; reason: string };

export interface TrackOptions {
  signal?: AbortSignal;
  /** Between reads; the spec's 2-3 s (the views are cached 2 s). */
  intervalMs?: number;
  /** Without a new upstream state for this long, follow the fill view only (the spec's "a few minutes"). */
  handOffAfterMs?: number;
  /** Gives up with ESDK_TRACK_DEADLINE after this long (default 30 min). */
  deadlineMs?: number;
}

export const DEFAULT_TRACK = { intervalMs: 2_500, handOffAfterMs: 180_000, deadlineMs: 1_800_000 } as const;

/** The upstream view's stop set. */
const UPSTREAM_STOP: ReadonlySet<UpstreamState> = new Set(["finalized", "failed", "refunded"]);
/** States at and after which the fill view is read by onchainOrderId. */
const UPSTREAM_EXECUTED: ReadonlySet<UpstreamState> = new Set([
  "executed",
  "settling",
  "settled",
  "finalized",
]);

/** The fill view's stop set: settled (chain SETTLED), or refunded. */
function fillDone(fill: OnchainFill): boolean {
  return fill.settled || fill.status === "REFUNDED";
}

/** One order's tracking: how it reads and waits, and the fill view's last state. */
interface Tracker {
  readonly call: Transport;
  readonly signal: AbortSignal | undefined;
  readonly intervalMs: number;
  readonly handOffAfterMs: number;
  readonly deadlineMs: number;
  readonly deadline: number;
  lastFill: string;
}

/**
 * Follows an order by polling. openFor orders: GET /order/{hubOrderId}/status until its stop set; once
 * executed, also the fill view by onchainOrderId, which ends tracking at settled (the stall rule: the
 * upstream may stay executed for good); after `handOffAfterMs` without a new upstream state, the fill view
 * only. Open-flow orders: GET /status/{orderId} until `final`, then the fill view by depositId until
 * settled. Yields each new state once; money facts are the fill view's.
 */
export async function* trackOrder(
  call: Transport,
  order: SubmittedOrder,
  options: TrackOptions = {},
): AsyncGenerator<TrackEvent> {
  const { intervalMs, handOffAfterMs, deadlineMs } = { ...DEFAULT_TRACK, ...options };
  const { signal } = options;
  const tracker: Tracker = {
    call,
    signal,
    intervalMs,
    handOffAfterMs,
    deadlineMs,
    deadline: Date.now() + deadlineMs,
    lastFill: "",
  };
  if (order.kind === "open-flow") yield* trackOpenFlow(tracker, order.orderId);
  else yield* trackOpenFor(tracker, order.hubOrderId, order.onchainOrderId);
}

/** GET /status/{orderId} until `final`, then the fill view by depositId until settled. */
async function* trackOpenFlow(tracker: Tracker, orderId: string): AsyncGenerator<TrackEvent> {
  const { call, signal } = tracker;
  let lastState = "";
  let depositId: string | undefined;
  for (;;) {
    const status = await call<HubOrderStatus>({ method: "GET", path: `/status/${orderId}`, signal });
    if (status.state !== lastState) {
      lastState = status.state;
      yield { view: "hub", status };
    }
    if (status.final) {
      depositId = status.depositId;
      break;
    }
    await tick(tracker);
  }
  // A solver-swap is recorded with no deposit: nothing on chain to follow.
  if (!depositId) return;
  for (;;) {
    const { event, done } = await fillStep(tracker, depositId);
    if (event) yield event;
    if (done) return;
    await tick(tracker);
  }
}

/** The upstream view until its stop set, the fill view once executed or handed off. */
async function* trackOpenFor(
  tracker: Tracker,
  hubOrderId: string,
  onchainOrderId: string,
): AsyncGenerator<TrackEvent> {
  const { call, signal, handOffAfterMs } = tracker;
  let lastState = "";
  let upstreamDone = false;
  let handedOff = false;
  let lastProgressAt = Date.now();
  for (;;) {
    if (!upstreamDone && !handedOff) {
      const status = await call<UpstreamOrderStatus>({
        method: "GET",
        path: `/order/${hubOrderId}/status`,
        signal,
      });
      if (status.state !== lastState) {
        lastState = status.state;
        lastProgressAt = Date.now();
        yield { view: "upstream", status };
      }
      if (UPSTREAM_STOP.has(status.state)) upstreamDone = true;
      if (!upstreamDone && Date.now() - lastProgressAt >= handOffAfterMs) {
        handedOff = true;
        yield {
          view: "handoff",
          reason: `no new upstream state for ${handOffAfterMs} ms: following the fill view`,
        };
      }
    }
    if (upstreamDone && lastState !== "finalized") {
      // failed or refunded upstream: one read of the chain's facts (a refund shows there), then stop.
      const { event } = await fillStep(tracker, onchainOrderId);
      if (event) yield event;
      return;
    }
    if (handedOff || UPSTREAM_EXECUTED.has(lastState as UpstreamState)) {
      const { event, done } = await fillStep(tracker, onchainOrderId);
      if (event) yield event;
      if (done) return;
    }
    await tick(tracker);
  }
}

async function tick(tracker: Tracker): Promise<void> {
  if (Date.now() > tracker.deadline) {
    throw new HubError({
      code: "ESDK_TRACK_DEADLINE",
      status: 0,
      message: `order not settled within ${tracker.deadlineMs} ms`,
    });
  }
  await sleep(tracker.intervalMs, tracker.signal);
}

/** Reads the fill view; the event when it changed, and whether it is done. */
async function fillStep(tracker: Tracker, onchainId: string): Promise<{ event?: TrackEvent; done: boolean }> {
  const fill = await tracker.call<OnchainFill>({
    method: "GET",
    path: `/onchain/${onchainId}/fill`,
    signal: tracker.signal,
  });
  const key = JSON.stringify([fill.status, fill.filled, fill.settled]);
  const changed = key !== tracker.lastFill;
  tracker.lastFill = key;
  return { ...(changed ? { event: { view: "fill", fill } as const } : {}), done: fillDone(fill) };
}
