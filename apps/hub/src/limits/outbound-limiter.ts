/** Gives a slot back; calling it twice gives back one slot only. */
export type ReleaseSlot = () => void;

/**
 * The outbound limiter (spec EIN0081 cause): calls in flight to one provider, quotes and submissions
 * together. Past the cap a call is not sent at all, so the hub's own overload never becomes the
 * upstream's 429s.
 */
export interface OutboundLimiter {
  /** A slot for one call to the provider, or undefined when its cap is reached (nothing may be sent). */
  tryAcquire(providerId: string): ReleaseSlot | undefined;
  inFlight(providerId: string): number;
}

export function createOutboundLimiter(deps: {
  maxConcurrentPerProvider: number;
  /** Told of each call not sent because its provider's cap was reached. */
  onShed?: (providerId: string) => void;
}): OutboundLimiter {
  const inFlight = new Map<string, number>();
  return {
    tryAcquire(providerId) {
      const current = inFlight.get(providerId) ?? 0;
      if (current >= deps.maxConcurrentPerProvider) {
        deps.onShed?.(providerId);
        return undefined;
      }
      inFlight.set(providerId, current + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (inFlight.get(providerId) ?? 1) - 1;
        if (left <= 0) inFlight.delete(providerId);
        else inFlight.set(providerId, left);
      };
    },
    inFlight: (providerId) => inFlight.get(providerId) ?? 0,
  };
}
