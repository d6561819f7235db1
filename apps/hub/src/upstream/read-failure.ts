import { z } from "zod";
import type { RawAnswer, UnavailableReason } from "./sent.js";

const errorBodySchema = z.looseObject({ error: z.string().optional(), message: z.string().optional() });

/** Retry-After in whole seconds, when the upstream sent it as such. */
export function retryAfterSeconds(headers: RawAnswer["headers"]): number | undefined {
  const value = headers["retry-after"];
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\d{1,6}$/.test(text)) return undefined;
  return Number(text);
}

/** A refusal's `{ error, message }`, or its text as the message. */
export function refusalOf(answer: RawAnswer): { error: string | undefined; message: string } {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(answer.text));
    if (parsed.success) {
      return {
        error: parsed.data.error,
        message: (parsed.data.message ?? answer.text).slice(0, 500),
      };
    }
  } catch {
    // A plain-text refusal (the reference's body rejections) is kept as its message.
  }
  return { error: undefined, message: answer.text.slice(0, 500) };
}

/** How a read (a quote, a lookup) ends when the upstream did not answer it with success. */
export type ReadFailure =
  | { kind: "auth-refused"; httpStatus: number }
  | { kind: "rate-limited"; retryAfterSeconds: number | undefined }
  | { kind: "refused"; httpStatus: number; error: string | undefined; message: string }
  | { kind: "unavailable"; reason: UnavailableReason; cause: string };

/**
 * A read's answer other than its success status: 401/403 auth-refused, 429 rate-limited, another 4xx
 * refused with the upstream's `{error, message}`, a 5xx server-error and anything else malformed.
 */
export function readFailureOf(answer: RawAnswer): ReadFailure {
  const status = answer.statusCode;
  if (status === 401 || status === 403) return { kind: "auth-refused", httpStatus: status };
  if (status === 429) return { kind: "rate-limited", retryAfterSeconds: retryAfterSeconds(answer.headers) };
  if (status >= 400 && status < 500) return { kind: "refused", httpStatus: status, ...refusalOf(answer) };
  return {
    kind: "unavailable",
    reason: status >= 500 ? "server-error" : "malformed",
    cause: `HTTP ${status}: ${answer.text.slice(0, 200)}`,
  };
}
