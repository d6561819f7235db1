import type { OutboundLimiter } from "../limits/outbound-limiter.js";

/** What a quote call past the outbound cap comes to, whatever the kind. */
export const outboundRefused = { kind: "rate-limited", retryAfterSeconds: undefined } as const;

/** A quote call past the provider's outbound cap is not sent; the round reads it as a 429 (EIN0081). */
export function limitedQuote<Request, Outcome>(
  providerId: string,
  quote: (request: Request, signal?: AbortSignal) => Promise<Outcome>,
  outbound: OutboundLimiter | undefined,
  refused: Outcome,
): (request: Request, signal?: AbortSignal) => Promise<Outcome> {
  if (!outbound) return quote;
  return (request, signal) => {
    const release = outbound.tryAcquire(providerId);
    if (!release) return Promise.resolve(refused);
    return quote(request, signal).finally(release);
  };
}
