import { HubError } from "./errors.js";

/** Per-attempt timeouts, above the gateway's (20 s on quote routes, 10 s elsewhere) so its answer always wins. */
export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = { quoteMs: 25_000, otherMs: 15_000 };

export interface Timeouts {
  /** POST /quote, /quote/preview, /quote/prepare. */
  quoteMs: number;
  /** Every other route. */
  otherMs: number;
}

export interface RetryPolicy {
  /** Attempts of one call in all, the first included. */
  maxAttempts: number;
  /** Availability codes: the first back-off, doubled each attempt up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Busy codes that name no wait. */
  busyFallbackMs: number;
}

/** Retries of availability codes (capped exponential back-off) and busy codes (the wait the answer names). */
export const DEFAULT_RETRY = {
  maxAttempts: 6,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  busyFallbackMs: 1_000,
} as const;

export interface TransportOptions {
  /** The service base address; it ends with /v1. */
  baseUrl: string;
  /** A secret key (servers) or a public project id (pages): exactly one. */
  apiKey?: string;
  projectId?: string;
  /** Who the calls are for: X-Service-Subject. */
  subject: string;
  timeouts?: Partial<Timeouts>;
  retry?: Partial<RetryPolicy>;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}

export interface CallSpec {
  method: "GET" | "POST";
  /** From /v1 on, without it: `/quote`, `/order/{id}/status`. */
  path: string;
  body?: object;
  query?: Record<string, string | undefined>;
  /** Quote routes get the longer timeout. */
  quote?: boolean;
  signal?: AbortSignal;
  /** Overrides the client's subject for this call (the canary check). */
  subject?: string;
  /**
   * Runs when an answer was lost (no answer, a timeout, EPX0050/51/52, no envelope) before the call is
   * re-sent; a submission reads the order here. Without it the call is simply re-sent.
   */
  onLostAnswer?: (error: HubError) => Promise<void>;
  /** Codes answered at once though their block would retry (EIN0052 on a submission). */
  stopOn?: readonly string[];
}

/** Codes and SDK codes after which a call may or may not have taken effect. */
const LOST_ANSWER = new Set([
  "ESDK_TIMEOUT",
  "ESDK_NETWORK",
  "ESDK_NOT_ENVELOPE",
  "EPX0050",
  "EPX0051",
  "EPX0052",
]);

/** EIN0050 with error_params[0] = upstreamAuth: the upstream refused the hub's credential; no retry fixes it. */
function isOperatorMatter(error: HubError): boolean {
  return error.code === "EIN0050" && error.params[0] === "upstreamAuth";
}

/** Whether an error leaves the outcome of the call unknown. */
function isLostAnswer(error: HubError): boolean {
  return LOST_ANSWER.has(error.code);
}

export type Transport = <T>(spec: CallSpec) => Promise<T>;

/** One HTTP client: one credential, one subject, the catalogue's retry rules, a timeout on every attempt. */
export function createTransport(options: TransportOptions): Transport {
  if (Boolean(options.apiKey) === Boolean(options.projectId)) {
    throw new TypeError("send exactly one credential: apiKey or projectId");
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const doFetch = options.fetch ?? globalThis.fetch;
  const credential: Record<string, string> = options.apiKey
    ? { "x-api-key": options.apiKey }
    : { "x-project-id": options.projectId as string };

  async function attempt<T>(spec: CallSpec): Promise<T> {
    const timeoutMs = spec.quote ? timeouts.quoteMs : timeouts.otherMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
    const headers: Record<string, string> = {
      ...credential,
      "x-service-subject": spec.subject ?? options.subject,
    };
    if (spec.body) headers["content-type"] = "application/json";
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.query ?? {}))
      if (value !== undefined) query.set(name, value);
    const url = `${baseUrl}${spec.path}${query.size > 0 ? `?${query}` : ""}`;
    let status = 0;
    try {
      const answer = await doFetch(url, {
        method: spec.method,
        headers,
        signal,
        ...(spec.body ? { body: JSON.stringify(spec.body) } : {}),
      });
      status = answer.status;
      const text = await answer.text();
      return readEnvelope<T>(text, answer.status, answer.headers);
    } catch (error) {
      if (error instanceof HubError) throw error;
      if (spec.signal?.aborted) {
        throw new HubError({ code: "ESDK_ABORTED", status, message: "aborted by the caller", cause: error });
      }
      if (timeout.aborted) {
        throw new HubError({
          code: "ESDK_TIMEOUT",
          status,
          message: `no answer within ${timeoutMs} ms`,
          cause: error,
        });
      }
      throw new HubError({
        code: "ESDK_NETWORK",
        status,
        message: `request failed: ${String(error)}`,
        cause: error,
      });
    }
  }

  return async function call<T>(spec: CallSpec): Promise<T> {
    for (let attemptNo = 1; ; attemptNo++) {
      try {
        return await attempt<T>(spec);
      } catch (caught) {
        const error = caught as HubError;
        const retriable =
          error.block !== "terminal" && !spec.stopOn?.includes(error.code) && !isOperatorMatter(error);
        if (!retriable || attemptNo >= retry.maxAttempts) throw error;
        const waitMs =
          error.block === "busy"
            ? (error.retryAfterMs ?? retry.busyFallbackMs)
            : Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attemptNo - 1));
        await sleep(waitMs, spec.signal);
        if (isLostAnswer(error) && spec.onLostAnswer) await spec.onLostAnswer(error);
      }
    }
  };
}

function readEnvelope<T>(text: string, status: number, headers: Headers): T {
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    envelope = undefined;
  }
  const headerRequestId = headers.get("x-request-id") ?? undefined;
  if (
    typeof envelope !== "object" ||
    envelope === null ||
    typeof (envelope as { success?: unknown }).success !== "boolean"
  ) {
    throw new HubError({
      code: "ESDK_NOT_ENVELOPE",
      status,
      message: `answer without the envelope (HTTP ${status}): treated as service unavailable`,
      requestId: headerRequestId,
    });
  }
  const body = envelope as {
    success: boolean;
    data?: T;
    request_id?: string;
    message?: string;
    errors?: { error_code?: string; error_reference?: string; error_params?: string[] }[];
  };
  if (body.success) return body.data as T;
  const entry = body.errors?.[0] ?? {};
  const params = entry.error_params ?? [];
  const code = entry.error_code ?? "ESDK_NOT_ENVELOPE";
  throw new HubError({
    code,
    status,
    message: body.message ?? code,
    reference: entry.error_reference,
    params,
    requestId: body.request_id ?? headerRequestId,
    retryAfterMs: waitNamed(params, headers.get("retry-after")),
  });
}

/** error_params[0] in ms when it is a number (EIN0080, EPX0080, EPX0082), else Retry-After (seconds or a date). */
function waitNamed(params: readonly string[], retryAfter: string | null): number | undefined {
  const first = params[0];
  if (first !== undefined && /^\d+$/.test(first)) return Number(first);
  if (retryAfter === null) return undefined;
  if (/^\d+$/.test(retryAfter.trim())) return Number(retryAfter.trim()) * 1000;
  const at = Date.parse(retryAfter);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** The longest delay setTimeout keeps; a longer one fires after 1 ms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Waits (in steps setTimeout can hold), or throws ESDK_ABORTED as soon as the caller's signal fires. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () =>
      new HubError({
        code: "ESDK_ABORTED",
        status: 0,
        message: "aborted by the caller",
        cause: signal?.reason,
      });
    if (signal?.aborted) return reject(aborted());
    let timer: ReturnType<typeof setTimeout>;
    const wait = (left: number) => {
      timer = setTimeout(
        () => {
          if (left > MAX_TIMER_MS) return wait(left - MAX_TIMER_MS);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
        Math.min(left, MAX_TIMER_MS),
      );
    };
    wait(ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
