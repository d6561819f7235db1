/** How a caller handles a code: change the request, retry later, or back off. */
export type ErrorBlock = "terminal" | "availability" | "busy";

/** One entry of the catalogue: who answers it, its HTTP status, its block and what it means. */
export interface ErrorSpec {
  readonly origin: "gateway" | "hub" | "framework";
  readonly status: number;
  readonly block: ErrorBlock;
  readonly summary: string;
}

/**
 * Every code the service answers. The hub answers 400 for each of its own codes, availability and
 * busy included; the gateway answers real statuses. Never derive a code from a status.
 */
export const errorCatalogue = {
  EPX0001: {
    origin: "gateway",
    status: 401,
    block: "terminal",
    summary: "API key header missing or not in the svc_sk_ format.",
  },
  EPX0002: {
    origin: "gateway",
    status: 401,
    block: "terminal",
    summary: "API key unknown, revoked or expired.",
  },
  EPX0003: {
    origin: "gateway",
    status: 404,
    block: "terminal",
    summary: "Route not open to this credential (GET /orders with a project id).",
  },
  EPX0004: { origin: "gateway", status: 404, block: "terminal", summary: "No such route." },
  EPX0005: { origin: "gateway", status: 413, block: "terminal", summary: "Request body over 64 KiB." },
  EPX0006: {
    origin: "gateway",
    status: 400,
    block: "terminal",
    summary:
      "Request could not be read: a request line or header the HTTP parser refuses (a raw control character or non-ASCII byte in the path included), or an aborted or malformed body transfer.",
  },
  EPX0007: {
    origin: "gateway",
    status: 400,
    block: "terminal",
    summary: "Both x-api-key and x-project-id were sent; send exactly one.",
  },
  EPX0008: { origin: "gateway", status: 401, block: "terminal", summary: "Project id malformed." },
  EPX0009: { origin: "gateway", status: 401, block: "terminal", summary: "Project id unknown." },
  EPX0010: {
    origin: "gateway",
    status: 403,
    block: "terminal",
    summary: "Origin not allowed for this project.",
  },
  EPX0050: {
    origin: "gateway",
    status: 502,
    block: "availability",
    summary: "Hub unreachable: the connection failed or broke before an answer.",
  },
  EPX0051: {
    origin: "gateway",
    status: 503,
    block: "availability",
    summary: "Hub failing: it answered without the envelope or with a server error.",
  },
  EPX0052: {
    origin: "gateway",
    status: 504,
    block: "availability",
    summary:
      "Gateway timeout (20 s on quote routes, 10 s elsewhere); on a submission the outcome is unknown.",
  },
  EPX0053: {
    origin: "gateway",
    status: 503,
    block: "availability",
    summary: "Credential could not be checked; the call never reached the hub.",
  },
  EPX0080: {
    origin: "gateway",
    status: 429,
    block: "busy",
    summary: "Organization or project pool spent; back off error_params[0] ms.",
  },
  EPX0081: {
    origin: "gateway",
    status: 429,
    block: "busy",
    summary: "Failed-credential lockout for this IP; Retry-After gives seconds.",
  },
  EPX0082: {
    origin: "gateway",
    status: 429,
    block: "busy",
    summary: "This visitor IP's bucket is spent; back off error_params[0] ms.",
  },
  EIN0001: {
    origin: "hub",
    status: 400,
    block: "terminal",
    summary:
      "Invalid form field or body (the reference names it), or a winner posted to the wrong submission route.",
  },
  EIN0005: {
    origin: "hub",
    status: 400,
    block: "terminal",
    summary: "Quote expired: re-quote and re-sign, unless its transaction was already sent.",
  },
  EIN0006: {
    origin: "hub",
    status: 400,
    block: "terminal",
    summary:
      "Open-flow registration refused: the quote was issued without a sourceAccount, so it cannot be registered.",
  },
  EIN0007: {
    origin: "hub",
    status: 400,
    block: "terminal",
    summary:
      "Re-approval failed, an OIF-lane or proxy-lane quote on POST /order, an upstream refusal, or a refused upstream report with no earlier state.",
  },
  EIN0008: { origin: "hub", status: 400, block: "terminal", summary: "No viable route for this request." },
  EIN0009: { origin: "hub", status: 400, block: "terminal", summary: "Order not found." },
  EIN0010: {
    origin: "hub",
    status: 400,
    block: "terminal",
    summary: "Bad signature (covers an unknown quote), or a partial or missing signature set.",
  },
  EIN0021: {
    origin: "hub",
    status: 400,
    block: "terminal",
    summary: "The solver declined the signed order; nothing was opened. Re-quote and sign again.",
  },
  EIN0049: { origin: "hub", status: 400, block: "terminal", summary: "Internal error." },
  EIN0050: {
    origin: "hub",
    status: 400,
    block: "availability",
    summary:
      "Upstream or the hub's database unavailable; error_params[0] = upstreamAuth when the upstream refused the hub's credential.",
  },
  EIN0051: {
    origin: "hub",
    status: 400,
    block: "availability",
    summary: "No watermark for this chain domain.",
  },
  EIN0052: {
    origin: "hub",
    status: 400,
    block: "availability",
    summary:
      "Outcome of an earlier submission unknown; the reservation is kept until an operator reconciles it.",
  },
  EIN0080: {
    origin: "hub",
    status: 400,
    block: "busy",
    summary: "Per-organization rate bucket shed; back off error_params[0] ms.",
  },
  EIN0081: {
    origin: "hub",
    status: 400,
    block: "busy",
    summary:
      "Admission shed: quotes in flight, status table full, outbound limiter, or the upstream's own 429.",
  },
  EMC0005: {
    origin: "framework",
    status: 400,
    block: "terminal",
    summary: "Framework refusal: GET with a JSON body, empty POST body, or the per-IP limiter.",
  },
  EMC0028: { origin: "framework", status: 400, block: "terminal", summary: "Malformed JSON body." },
} as const satisfies Record<string, ErrorSpec>;

/** Every code the service can answer. */
export type ErrorCode = keyof typeof errorCatalogue;

/** All codes, in catalogue order. */
export const errorCodes = Object.keys(errorCatalogue) as ErrorCode[];

/** The spec puts message on terminal codes only; availability and busy codes (EIN0050..EIN0099 and the gateway's) carry none. */
export function carriesMessage(code: ErrorCode): boolean {
  return errorCatalogue[code].block === "terminal";
}
