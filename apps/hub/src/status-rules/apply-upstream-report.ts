import {
  isUpstreamTerminal,
  type UpstreamFailedAt,
  type UpstreamState,
  upstreamFailedAtValues,
  upstreamForwardRank,
  upstreamStates,
} from "./upstream-state.js";
import type { UpstreamReport, UpstreamView } from "./upstream-view.js";

/** Why a report was not applied; every one of them counts as "backwards, unknown or contradictory". */
export type UpstreamRejection =
  | "unknown-status"
  | "unknown-fill-reference"
  | "backwards"
  | "terminal-contradicted"
  | "fill-reference-changed"
  | "fill-before-execution";

export type UpstreamReportOutcome =
  | { applied: true; changed: boolean; view: UpstreamView }
  | { applied: false; rejection: UpstreamRejection; view: UpstreamView }
  | { applied: false; rejection: UpstreamRejection; view: undefined; errorCode: "EIN0007" };

interface ParsedStatus {
  state: UpstreamState;
  failedAt?: UpstreamFailedAt;
  failureReason?: string;
}

/** States in which upstream has not started a fill, so a fill reference beside them contradicts them. */
const beforeExecution: ReadonlySet<UpstreamState> = new Set(["created", "pending"]);

function parseStatus(status: unknown): ParsedStatus | undefined {
  if (typeof status === "string") {
    return (upstreamStates as readonly string[]).includes(status)
      ? { state: status as UpstreamState }
      : undefined;
  }
  if (typeof status !== "object" || status === null || Array.isArray(status)) return undefined;
  const keys = Object.keys(status);
  if (keys.length !== 1 || keys[0] !== "failed") return undefined;
  const arm = (status as { failed: unknown }).failed;
  if (!Array.isArray(arm) || arm.length !== 2) return undefined;
  const [stage, reason] = arm as [unknown, unknown];
  if (typeof stage !== "string" || !(upstreamFailedAtValues as readonly string[]).includes(stage))
    return undefined;
  if (typeof reason !== "string") return undefined;
  return { state: "failed", failedAt: stage as UpstreamFailedAt, failureReason: reason };
}

/** The fill reference as a string, null for "none reported", undefined when unreadable. */
function parseFillReference(fill: unknown): string | null | undefined {
  if (fill === undefined || fill === null) return null;
  if (typeof fill === "string") return fill.length > 0 ? fill : undefined;
  if (typeof fill === "object" && !Array.isArray(fill)) {
    const hash = (fill as { hash?: unknown }).hash;
    if (typeof hash === "string" && hash.length > 0) return hash;
  }
  return undefined;
}

function sameFailure(view: UpstreamView, parsed: ParsedStatus): boolean {
  return view.failedAt === parsed.failedAt && view.failureReason === parsed.failureReason;
}

function reject(previous: UpstreamView | undefined, rejection: UpstreamRejection): UpstreamReportOutcome {
  if (!previous) return { applied: false, rejection, view: undefined, errorCode: "EIN0007" };
  return {
    applied: false,
    rejection,
    view: { ...previous, rejectedUpstreamTransition: true, upstreamStale: true },
  };
}

function judgeState(previous: UpstreamView, next: ParsedStatus): UpstreamRejection | "same" | "advance" {
  if (isUpstreamTerminal(previous.state)) {
    if (next.state !== previous.state) {
      const bothForward = upstreamForwardRank(next.state) !== undefined && previous.state === "finalized";
      return bothForward ? "backwards" : "terminal-contradicted";
    }
    return next.state === "failed" && !sameFailure(previous, next) ? "terminal-contradicted" : "same";
  }
  if (next.state === previous.state) return "same";
  const from = upstreamForwardRank(previous.state);
  const to = upstreamForwardRank(next.state);
  if (to === undefined || from === undefined) return "advance";
  return to > from ? "advance" : "backwards";
}

/**
 * Applies one aggregator report to the view the hub holds. Forward moves (skips allowed), failed and
 * refunded from any non-terminal state are applied; a backwards, unknown or contradictory report keeps
 * the previous view and flags it, and with no previous view it is refused with EIN0007.
 * Contradictory: a report other than the recorded terminal state (or, on failed, another stage or
 * reason); a fill reference other than the one recorded; a fill reference beside created or pending.
 * A report without a fill reference keeps the recorded one: silence is not a retraction.
 */
export function applyUpstreamReport(
  previous: UpstreamView | undefined,
  report: UpstreamReport,
  at: Date,
): UpstreamReportOutcome {
  const parsed = parseStatus(report.status);
  if (!parsed) return reject(previous, "unknown-status");
  const fill = parseFillReference(report.fillTransaction);
  if (fill === undefined) return reject(previous, "unknown-fill-reference");
  if (fill !== null && beforeExecution.has(parsed.state)) return reject(previous, "fill-before-execution");

  const readAt = at.toISOString();
  if (!previous) {
    const view: UpstreamView = {
      state: parsed.state,
      stateSource: "upstream-advisory",
      finalityVerified: false,
      upstreamFillReported: fill !== null,
      history: [{ state: parsed.state, at: readAt }],
      rejectedUpstreamTransition: false,
      upstreamStale: false,
    };
    if (fill !== null) view.fillTransaction = fill;
    if (parsed.failedAt) view.failedAt = parsed.failedAt;
    if (parsed.failureReason !== undefined) view.failureReason = parsed.failureReason;
    return { applied: true, changed: true, view };
  }

  const judged = judgeState(previous, parsed);
  if (judged !== "same" && judged !== "advance") return reject(previous, judged);
  const recorded = previous.fillTransaction;
  if (fill !== null && recorded !== undefined && fill.toLowerCase() !== recorded.toLowerCase()) {
    return reject(previous, "fill-reference-changed");
  }

  const gainsFill = fill !== null && recorded === undefined;
  const view: UpstreamView = { ...previous, rejectedUpstreamTransition: false, upstreamStale: false };
  if (gainsFill) {
    view.fillTransaction = fill;
    view.upstreamFillReported = true;
  }
  if (judged === "advance") {
    view.state = parsed.state;
    view.history = [...previous.history, { state: parsed.state, at: readAt }];
    if (parsed.failedAt) view.failedAt = parsed.failedAt;
    if (parsed.failureReason !== undefined) view.failureReason = parsed.failureReason;
  }
  const flagsCleared = previous.rejectedUpstreamTransition || previous.upstreamStale;
  return { applied: true, changed: judged === "advance" || gainsFill || flagsCleared, view };
}
