import { QuoteRejection } from "./quote-rejection.js";

/** How far ahead an upstream's fill deadline or expiry may lie when vetted, by default: 24 h. */
export const DEFAULT_QUOTE_MAX_DEADLINE_MS = 24 * 3_600_000;

/**
 * Refuses an answer one of whose deadlines (unix seconds, by name) lies more than `maxDeadlineMs`
 * after `nowMs`: a fill deadline or an expiry days away holds the user's input in escrow that long
 * when no solver fills (docs/quotes.md, "Deadline bound"). Throws `deadline-too-far` naming the first.
 */
export function checkDeadlineBound(
  deadlines: Readonly<Record<string, number>>,
  nowMs: number,
  maxDeadlineMs: number = DEFAULT_QUOTE_MAX_DEADLINE_MS,
): void {
  for (const [name, unixSeconds] of Object.entries(deadlines)) {
    const aheadMs = unixSeconds * 1000 - nowMs;
    if (aheadMs > maxDeadlineMs) {
      throw new QuoteRejection(
        "deadline-too-far",
        `${name} ${unixSeconds} is ${Math.floor(aheadMs / 1000)} s ahead, past the ${Math.floor(maxDeadlineMs / 1000)} s bound`,
      );
    }
  }
}
