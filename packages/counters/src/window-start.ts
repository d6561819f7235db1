/** Start of the fixed window holding `nowMs`; windows are aligned to the epoch, so every replica agrees. */
export function windowStart(nowMs: number, windowMs: number): number {
  return Math.floor(nowMs / windowMs) * windowMs;
}
