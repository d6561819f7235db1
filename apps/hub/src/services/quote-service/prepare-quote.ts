import { canonicalSha256, HubError, type PreparedQuote, type PrepareQuoteRequest } from "@hub/contract";
import type { QuoteRound } from "../../quotes/quote-round.js";
import { noQuoteProvider } from "../../quotes/quote-round.js";
import type { QuoteRoute } from "../../quotes/resolve-quote-route.js";
import type { StoredQuote } from "../../store/quote-store.js";
import type { Caller } from "../caller.js";
import type { QuoteServiceDeps } from "./quote-service-deps.js";
import { recordQuote } from "./record-quote.js";

const PROVIDER_OFFER_ID = /^([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9._-]{1,31})$/;

function replayOf(stored: StoredQuote, fingerprint: string): PreparedQuote {
  if (stored.requestFingerprint !== fingerprint) {
    throw new HubError("EIN0001", {
      reference: "preparationId",
      message: "This preparationId was used with another request body; choose a new preparationId.",
    });
  }
  return stored.winner as PreparedQuote;
}

/** POST /quote/prepare: the chosen provider's winner under the client's preparationId, replayed on a repeat. */
export function prepareQuote(
  deps: QuoteServiceDeps,
  round: QuoteRound,
  request: PrepareQuoteRequest,
  route: QuoteRoute,
  caller: Caller,
  signal: AbortSignal | undefined,
): Promise<PreparedQuote> {
  const { admission, quoteStore } = deps;
  return admission.run(async () => {
    if (!quoteStore) throw noQuoteProvider();
    const fingerprint = canonicalSha256(request);
    const earlier = await quoteStore.findPrepared(caller.organization, caller.subject, request.preparationId);
    if (earlier) return replayOf(earlier, fingerprint);
    const offer = PROVIDER_OFFER_ID.exec(request.provider);
    if (!offer || !round.serves({ providerId: offer[1]! })) {
      throw new HubError("EIN0008", {
        message: `No viable route: provider ${request.provider} is not offered here; take one from a preview.`,
      });
    }
    const quotes = await round.run(route, { providerId: offer[1]!, solverId: offer[2]! }, signal);
    const { row, disclosed } = recordQuote(deps, quotes[0]!, caller, fingerprint, request.preparationId);
    const winner: PreparedQuote = { ...disclosed, preparationId: request.preparationId };
    const stored = await quoteStore.insertPrepared({
      ...row,
      winner,
      preparationId: request.preparationId,
    });
    return stored.inserted ? winner : replayOf(stored.quote, fingerprint);
  });
}
