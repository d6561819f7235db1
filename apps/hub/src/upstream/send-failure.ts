import type { CallDeadline } from "./call-deadline.js";
import { describe, errorCode } from "./describe-error.js";
import type { Sent } from "./sent.js";
import { AnswerTooLarge } from "./upstream-answer-parser.js";

/** Failures at connect time: the request was never written, so nothing reached the upstream. */
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
]);

/** Why a call that threw has no answer, and whether anything reached the upstream. */
export function failureOf(
  error: unknown,
  deadline: CallDeadline,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Sent {
  if (error instanceof AnswerTooLarge) {
    return { ok: false, notSent: false, reason: "malformed", cause: error.message };
  }
  const code = errorCode(error);
  if (code !== undefined && NOT_SENT_CODES.has(code)) {
    return { ok: false, notSent: true, reason: "transport", cause: describe(error) };
  }
  if (deadline.timedOut) {
    return {
      ok: false,
      notSent: false,
      reason: "timeout",
      cause: `no answer within ${timeoutMs} ms`,
    };
  }
  if (signal?.aborted) {
    return { ok: false, notSent: false, reason: "aborted", cause: describe(signal.reason) };
  }
  return { ok: false, notSent: false, reason: "transport", cause: describe(error) };
}
