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

/** One call from the gateway to the hub: the method, the path with its allowed query, the hub headers and the raw body. */
export interface HubCall {
  method: string;
  /** Path from /v1 on, with the query string only where the spec lets it through. */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Fires when the gateway gives up on the call (its timeout); the hub cancels what it was doing. */
  signal?: AbortSignal;
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
