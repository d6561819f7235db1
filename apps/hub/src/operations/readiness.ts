/** One thing the process needs to serve: it resolves to undefined when ready, else to why not (or throws). */
export interface ReadinessCheck {
  /** `database`, `redis`, `upstream:<provider>`, `chain:<chainDomain>`, `reconciler:<chainDomain>`. */
  readonly name: string;
  /**
   * Checks of one group stand in for each other: the group holds the process back only when none of
   * them is ready (the upstreams: one provider down, the others still quote).
   */
  readonly group?: string;
  run(signal: AbortSignal): Promise<string | undefined>;
}

export interface CheckResult {
  name: string;
  ready: boolean;
  /** Why it is not ready; absent when ready. */
  detail?: string;
  ms: number;
}

/** The body of /readyz (and /healthz): 200 when `status` is ready, else 503. */
export interface ReadinessReport {
  status: "ready" | "not-ready" | "stopping";
  /**
   * The names of the checks that hold the process back, in check order: every failed check outside a
   * group, and every check of a group none of whose checks is ready. A failed check of a group that
   * still has a ready one shows only in `checks`.
   */
  notReady: string[];
  checks: CheckResult[];
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

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
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
  try {
    detail = await Promise.race([check.run(controller.signal), late]);
  } catch (error) {
    detail = describeError(error);
  } finally {
    clearTimeout(timer);
  }
  const ms = Math.round(performance.now() - started);
  return detail === undefined
    ? { name: check.name, ready: true, ms }
    : { name: check.name, ready: false, detail, ms };
}

export function createReadiness(options: ReadinessOptions): Readiness {
  const timeoutMs = options.timeoutMs ?? 2000;
  const cacheMs = options.cacheMs ?? 1000;
  let stopping = false;
  let last: { at: number; report: ReadinessReport } | undefined;
  let running: Promise<ReadinessReport> | undefined;

  async function measure(): Promise<ReadinessReport> {
    const checks = await Promise.all(options.checks.map((check) => runCheck(check, timeoutMs)));
    const groupsServing = new Set(
      options.checks.filter((check, i) => check.group !== undefined && checks[i]?.ready).map((c) => c.group),
    );
    const notReady = checks
      .filter((result, i) => {
        const group = options.checks[i]?.group;
        return !result.ready && (group === undefined || !groupsServing.has(group));
      })
      .map((result) => result.name);
    return { status: notReady.length === 0 ? "ready" : "not-ready", notReady, checks };
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
