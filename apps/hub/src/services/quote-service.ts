import { HubError } from "@hub/contract";
import type { QuoteAdmission } from "./quote-admission.js";

/** Which of the three quote routes asked. */
export type QuoteKind = "quote" | "preview" | "prepare";

export interface QuoteService {
  /** Runs one quote round inside the in-flight admission (EIN0081 past the cap). */
  quote(kind: QuoteKind, request: unknown, signal: AbortSignal | undefined): Promise<never>;
}

/**
 * Quote rounds. The hub has no provider client yet, so a round runs across no providers and ends the
 * way the spec ends a round without a winner: no viable route (EIN0008).
 */
export function createQuoteService(deps: { admission: QuoteAdmission }): QuoteService {
  return {
    quote(_kind, _request, signal) {
      return deps.admission.run(async () => {
        signal?.throwIfAborted();
        throw new HubError("EIN0008", { message: "No viable route: no quote provider is configured." });
      });
    },
  };
}
