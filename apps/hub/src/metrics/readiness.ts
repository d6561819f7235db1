import { redactUrlsInText } from "@hub/http-client";
/** One thing the process needs to serve: it resolves to undefined when ready, else to why not (or throws). */
export interface ReadinessCheck {
  /** `database`, `redis`, `upstream:<provider>`, `chain:<chainDomain>`, `reconciler:<chainDomain>`. */
  readonly name: string;
  /**
   * Checks of one group stand in for each other: the group holds the process back only when none of
   * them is ready (the upstreams: one provider down, the others still quote).
   */
  readonly group?: string;
  /**
   * A check that reports but never holds the process back (the chains, as the upstream providers: one
   * chain's RPC down must not drain every replica). A failed advisory check makes the status
   * `degraded`, still served with 200, and is named in `degraded`; one that throws HoldBackError
   * holds the process back as any other check.
   */
  readonly advisory?: boolean;
  run(signal: AbortSignal): Promise<string | undefined>;
}

/**
 * Thrown by an advisory check for a failure that must hold the process back all the same (a chain
 * reorganised below every kept block: its indexing has stopped until an operator re-indexes it).
 */
export class HoldBackError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HoldBackError";
  }
}

export interface CheckResult {
  name: string;
  ready: boolean;
  /** Why it is not ready; absent when ready. */
  detail?: string;
  ms: number;
}

/** The body of /readyz (and /healthz): 200 when `status` is ready or degraded, else 503. */
export interface ReadinessReport {
  /** `degraded`: every check that holds the process back is ready, some advisory check is not. */
  status: "ready" | "degraded" | "not-ready" | "stopping";
  /**
   * The names of the checks that hold the process back, in check order: every failed check outside a
   * group, and every check of a group none of whose checks is ready. A failed check of a group that
   * still has a ready one shows only in `checks`.
   */
  notReady: string[];
  /** The advisory checks that failed (a chain failing or stale), in check order. */
  degraded: string[];
  checks: CheckResult[];
}

/** Whether a report's status is served with 200. */
export function isServing(status: ReadinessReport["status"]): boolean {
  return status === "ready" || status === "degraded";
}

export interface Readiness {
  /** Runs every check at once (each under the timeout), or hands back a report younger than the cache time. */
  report(): Promise<ReadinessReport>;
  /** From now on every report says `stopping`, so balancers drain the process before it closes. */
  markStopping(): void;
}

export interface ReadinessOptions {
  checks: readonly ReadinessCheck[];
  /** A check that has not answered within this is not ready. */
  timeoutMs?: number;
  /** A report is reused this long, so probes and scrapes never hammer the database or an upstream. */
  cacheMs?: number;
}

/** The failure as the report shows it; a URL in it (an RPC error names the URL it called) is redacted. */
function describeError(error: unknown): string {
  return redactUrlsInText(error instanceof Error ? error.message : String(error));
}

async function runCheck(
  check: ReadinessCheck,
  timeoutMs: number,
): Promise<{ result: CheckResult; holdsBack: boolean }> {
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(`no answer within ${timeoutMs} ms`);
    }, timeoutMs);
  });
  let detail: string | undefined;
  let holdsBack = false;
  try {
    detail = await Promise.race([check.run(controller.signal), late]);
  } catch (error) {
    detail = describeError(error);
    holdsBack = error instanceof HoldBackError;
  } finally {
    clearTimeout(timer);
  }
  const ms = Math.round(performance.now() - started);
  const result =
    detail === undefined
      ? { name: check.name, ready: true, ms }
      : { name: check.name, ready: false, detail, ms };
  return { result, holdsBack };
}

export function createReadiness(options: ReadinessOptions): Readiness {
  const timeoutMs = options.timeoutMs ?? 2000;
  const cacheMs = options.cacheMs ?? 1000;
  let stopping = false;
  let last: { at: number; report: ReadinessReport } | undefined;
  let running: Promise<ReadinessReport> | undefined;

  async function measure(): Promise<ReadinessReport> {
    const outcomes = await Promise.all(options.checks.map((check) => runCheck(check, timeoutMs)));
    const checks = outcomes.map((outcome) => outcome.result);
    const groupsServing = new Set(
      options.checks.filter((check, i) => check.group !== undefined && checks[i]?.ready).map((c) => c.group),
    );
    const notReady = checks
      .filter((result, i) => {
        const check = options.checks[i];
        if (check?.advisory && !outcomes[i]?.holdsBack) return false;
        const group = check?.group;
        return !result.ready && (group === undefined || !groupsServing.has(group));
      })
      .map((result) => result.name);
    const degraded = checks
      .filter((result, i) => options.checks[i]?.advisory && !outcomes[i]?.holdsBack && !result.ready)
      .map((result) => result.name);
    const status = notReady.length > 0 ? "not-ready" : degraded.length > 0 ? "degraded" : "ready";
    return { status, notReady, degraded, checks };
  }

  return {
    async report() {
      if (!last || performance.now() - last.at >= cacheMs) {
        running ??= measure().finally(() => {
          running = undefined;
        });
        last = { at: performance.now(), report: await running };
      }
      const { report } = last;
      return stopping ? { ...report, status: "stopping" } : report;
    },
    markStopping() {
      stopping = true;
    },
  };
}
