import type { AnswerHeaders } from "./upstream-answer-parser.js";

/** Why a call gave no usable answer without the upstream saying no. */
export type UnavailableReason = "timeout" | "aborted" | "transport" | "server-error" | "malformed";

/** An upstream's answer as read: status, headers and the body as text. */
export interface RawAnswer {
  statusCode: number;
  headers: AnswerHeaders;
  text: string;
}

/** What one call came to: an answer, or why there is none (notSent: nothing reached the upstream). */
export type Sent =
  | { ok: true; answer: RawAnswer }
  | { ok: false; notSent: boolean; reason: UnavailableReason; cause: string };
