import type { RouteMatch } from "./route-table.js";

/** Headers the gateway sets on every call it forwards to the hub (lowercase, as Node reads them). */
export const hubHeaders = {
  requestId: "x-request-id",
  userAgent: "user-agent",
  acceptLanguage: "accept-language",
  organization: "x-service-org",
  gatewayCredential: "x-gateway-credential",
  subject: "x-service-subject",
  contentType: "content-type",
  /** The caller's IP as the gateway saw it; the hub's per-IP limiter keys on it (trusted only with the credential). */
  clientAddress: "x-forwarded-for",
} as const;

/**
 * When the caller gives up on a call (the gateway's timeout, or a client gone). `aborted` is read
 * without making anything; `signal` is made on its first read (already aborted when read after the
 * call was given up), so a call whose work never listens pays for no AbortSignal (Node builds one
 * through EventTarget, which cost more than the whole catalog call).
 */
export interface Cancellation {
  readonly aborted: boolean;
  readonly signal: AbortSignal;
}

/** The cancellation of a signal that already exists (a request's close, a test's controller). */
export function cancellationOf(signal: AbortSignal): Cancellation {
  return new SignalCancellation(signal);
}

class SignalCancellation implements Cancellation {
  constructor(readonly signal: AbortSignal) {}

  get aborted(): boolean {
    return this.signal.aborted;
  }
}

/** One call from the gateway to the hub: the method, the path with its allowed query, the hub headers and the raw body. */
export interface HubCall {
  method: string;
  /** Path from /v1 on, with the query string only where the spec lets it through. */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Aborted when the gateway gives up on the call (its timeout); the hub cancels what it was doing. */
  deadline?: Cancellation;
  /**
   * The route the gateway matched `url` to. The in-process hub takes it instead of matching again;
   * over HTTP it stays behind and the hub matches the url it receives.
   */
  route?: RouteMatch;
}

/** The hub's answer, passed back by the gateway unchanged. */
export interface HubAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The gateway's one way to the hub; implemented over HTTP and in process with the same contract. */
export interface HubTransport {
  send(call: HubCall): Promise<HubAnswer>;
  close(): Promise<void>;
}
