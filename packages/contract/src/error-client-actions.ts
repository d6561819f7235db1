import type { ErrorCode } from "./error-catalogue.js";

/** What a client does on each code, as docs/errors.md and the OpenAPI document tell it. */
export const errorClientActions: Readonly<Record<ErrorCode, string>> = {
  EPX0001: "Send the secret key in x-api-key in its exact format. Stop: no retry fixes a refused key.",
  EPX0002: "Stop: the key is unknown, revoked or expired. Create a new key in the dashboard.",
  EPX0003: "Call this route with a secret key from a backend; a project id cannot open it.",
  EPX0004: "Check the method and path against the OpenAPI document.",
  EPX0005: "Send a body of at most 64 KiB.",
  EPX0006:
    "Percent-encode the path (no raw control or non-ASCII bytes) and send well-formed headers; if the body arrived incomplete, resend it.",
  EPX0007: "Send exactly one credential: x-api-key or x-project-id.",
  EPX0008: "Send the project id exactly as the dashboard shows it.",
  EPX0009: "Stop: the project id is unknown. Check it in the dashboard.",
  EPX0010: "Add this page's exact origin to the project's allowed origins in the dashboard.",
  EPX0050:
    "Retry later. On a submission the outcome is unknown: recover by reading the order's status, then re-post the identical body.",
  EPX0051:
    "Retry later. On a submission the outcome is unknown: recover by reading the order's status, then re-post the identical body.",
  EPX0052:
    "Retry later with a client timeout above the gateway's. On a submission the outcome is unknown: read the status, then re-post the identical body.",
  EPX0053: "Retry later; the call never reached the hub.",
  EPX0080: "Back off error_params[0] ms (Retry-After in seconds), then retry.",
  EPX0081: "Wait Retry-After seconds; fix the credential that was refused before calling again.",
  EPX0082: "Back off error_params[0] ms (Retry-After in seconds), then retry.",
  EIN0001:
    "Fix the field named by error_reference (`body`: the JSON types or the Content-Type; `x-service-subject`: the header). On POST /order/openfor it can also mean the winner belongs on POST /order.",
  EIN0005: "Re-quote and re-sign, unless the quote's own transaction was already sent.",
  EIN0006:
    "Re-quote with sourceAccount before sending anything. If the transaction was sent, it completes on chain unregistered.",
  EIN0007:
    "On POST /order: an OIF or proxy-lane quote completes through POST /order/openfor; otherwise never re-quote once the transaction was sent. On openFor after the transaction: follow the deposit by the on-chain views.",
  EIN0008: "Change the request (assets, amount or recipient); no route exists for it now.",
  EIN0009:
    "Check the id. Right after a lost submission answer, retry the read once, then re-post the identical body.",
  EIN0010:
    "Send signature, signer and scheme together (eip191, signer = the quote's sourceAccount) over signIntent verbatim, with artifactHash = disclosure.signableHash.",
  EIN0021: "Do not re-post. Re-quote and sign again.",
  EIN0049: "Retry later; report the request_id if it persists.",
  EIN0050:
    "Retry later. error_params[0] = upstreamAuth is an operator matter. On openFor, a re-post may answer EIN0052 if something was sent.",
  EIN0051:
    "Check the chain domain against GET /catalog (case-sensitive); retry later if the chain is not read yet.",
  EIN0052:
    "Stop: the order may have opened. Never re-quote, never ask for another signature; an operator reconciles the reservation.",
  EIN0080: "Back off error_params[0] ms, then re-post the identical body.",
  EIN0081: "Back off, then retry; on openFor re-post the identical body.",
  EMC0005: "Send no body on a GET, a JSON object on a POST; on the per-IP limiter, slow down.",
  EMC0028: "Send well-formed JSON.",
};
