import { HubError } from "@hub/contract";

/** The process-wide cap on quotes in flight; past it a quote is shed with EIN0081, never queued. */
export interface QuoteAdmission {
  run<T>(work: () => Promise<T>): Promise<T>;
  readonly inFlight: number;
}

export function createQuoteAdmission(deps: { limit: number; onShed?: () => void }): QuoteAdmission {
  let inFlight = 0;
  return {
    get inFlight() {
      return inFlight;
    },
    async run(work) {
      if (inFlight >= deps.limit) {
        deps.onShed?.();
        throw new HubError("EIN0081");
      }
      inFlight += 1;
      try {
        return await work();
      } finally {
        inFlight -= 1;
      }
    },
  };
}
