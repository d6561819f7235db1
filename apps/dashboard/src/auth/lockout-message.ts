/** What a locked-out client is told: the failed `what` and the minutes until it may try again. */
export function lockoutMessage(lockedUntilMs: number, nowMs: number, what: string): string {
  const minutes = Math.max(1, Math.ceil((lockedUntilMs - nowMs) / 60_000));
  return `Too many failed ${what}. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
