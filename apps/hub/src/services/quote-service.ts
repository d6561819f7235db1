import type { Clock } from "@hub/clock";
import {
  canonicalSha256,
  HubError,
  newOpaqueId,
  type PreparedQuote,
  type PrepareQuoteRequest,
  type QuotePreview,
  type QuoteRequest,
  type QuoteWinner,
} from "@hub/contract";
import type { Logger } from "pino";
import type { QuoteAdmission } from "../limits/quote-admission.js";
import type { CandidateSource, QuoteCandidate } from "../quotes/quote-candidate.js";
import type { QuoteMetrics } from "../quotes/quote-metrics.js";
import { createQuoteRound, noQuoteProvider } from "../quotes/quote-round.js";
import { quoteTerms } from "../quotes/quote-terms.js";
import type { QuoteRoute } from "../quotes/resolve-quote-route.js";
import type { NewQuote, QuoteStore, StoredQuote } from "../store/quote-store.js";
import type { Caller } from "./caller.js";

/** A stored winner and its JSON text, serialized once for the quotes row and the answer. */
export interface IssuedQuote {
  winner: QuoteWinner;
  winnerJson: string;
}

/** Each call takes the request's route as the quote route resolved it before the charge. */
export interface QuoteService {
  /** POST /quote: one round, the winner disclosed and stored. */
  quote(
    request: QuoteRequest,
    route: QuoteRoute,
    caller: Caller,
    signal: AbortSignal | undefined,
  ): Promise<IssuedQuote>;
  /** POST /quote/preview: indicative offers of every provider, best first; nothing stored. */
  preview(
    request: QuoteRequest,
    route: QuoteRoute,
    caller: Caller,
    signal: AbortSignal | undefined,
  ): Promise<QuotePreview>;
  /** POST /quote/prepare: the chosen provider's winner under the client's preparationId. */
  prepare(
    request: PrepareQuoteRequest,
    route: QuoteRoute,
    caller: Caller,
    signal: AbortSignal | undefined,
  ): Promise<PreparedQuote>;
}

export interface QuoteServiceDeps {
  admission: QuoteAdmission;
  /** Every provider kind (OIF, proxy lanes, external), in the order their refusals are weighed. */
  sources: readonly CandidateSource[];
  quoteStore: QuoteStore | undefined;
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  replicaId: string;
  quoteDeadlineMs: number;
  quoteLifetimeMs: number;
}

const PROVIDER_OFFER_ID = /^([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9._-]{1,31})$/;

/** Quote rounds behind the three quote routes, inside the in-flight admission (EIN0081 past the cap). */
export function createQuoteService(deps: QuoteServiceDeps): QuoteService {
  const { admission, clock, replicaId, quoteStore } = deps;
  const round = createQuoteRound({
    sources: deps.sources,
    metrics: deps.metrics,
    logger: deps.logger,
    clock,
    deadlineMs: deps.quoteDeadlineMs,
  });

  function record(
    winner: QuoteCandidate,
    caller: Caller,
    fingerprint: string,
    preparationId: string | null,
  ): { row: NewQuote; disclosed: QuoteWinner } {
    const issuedAtMs = clock.now();
    // About 30 s, never past the upstream's own validity.
    const expiresAtMs = Math.min(issuedAtMs + deps.quoteLifetimeMs, winner.validUntilMs);
    const identity = {
      quoteRequestId: newOpaqueId("qr", replicaId),
      quoteId: newOpaqueId("q", replicaId),
      expiresAtMs,
    };
    const { winner: disclosed, template } = winner.disclose(identity);
    const registrableUntilMs =
      winner.registrableForMs === undefined ? expiresAtMs : issuedAtMs + winner.registrableForMs;
    const row: NewQuote = {
      quoteId: identity.quoteId,
      quoteRequestId: identity.quoteRequestId,
      orgId: caller.organization,
      subject: caller.subject,
      replicaId,
      lane: winner.lane,
      providerId: winner.providerId,
      preparationId,
      requestFingerprint: fingerprint,
      winner: disclosed,
      template,
      onchainOrderId: winner.onchainOrderId ?? null,
      issuedAt: new Date(issuedAtMs),
      expiresAt: new Date(expiresAtMs),
      registrableUntil: new Date(registrableUntilMs),
    };
    return { row, disclosed };
  }

  function replayOf(stored: StoredQuote, fingerprint: string): PreparedQuote {
    if (stored.requestFingerprint !== fingerprint) {
      throw new HubError("EIN0001", {
        reference: "preparationId",
        message: "This preparationId was used with another request body; choose a new preparationId.",
      });
    }
    return stored.winner as PreparedQuote;
  }

  return {
    quote(request, route, caller, signal) {
      return admission.run(async () => {
        const quotes = await round.run(route, {}, signal);
        if (!quoteStore) throw noQuoteProvider();
        const { row, disclosed } = record(quotes[0]!, caller, canonicalSha256(request), null);
        const winnerJson = JSON.stringify(disclosed);
        // The only round in flight: no other quote can join its statement (issue 13).
        await quoteStore.insert({ ...row, winnerJson }, admission.inFlight === 1);
        return { winner: disclosed, winnerJson };
      });
    },

    preview(_request, route, _caller, signal) {
      return admission.run(async () => {
        const quotes = await round.run(route, {}, signal);
        return {
          quoteRequestId: newOpaqueId("qr", replicaId),
          offers: quotes.map((quote) => ({
            ...quoteTerms(quote, route),
            ...(quote.etaSeconds === undefined ? {} : { etaSeconds: quote.etaSeconds }),
          })),
        };
      });
    },

    prepare(request, route, caller, signal) {
      return admission.run(async () => {
        if (!quoteStore) throw noQuoteProvider();
        const fingerprint = canonicalSha256(request);
        const earlier = await quoteStore.findPrepared(
          caller.organization,
          caller.subject,
          request.preparationId,
        );
        if (earlier) return replayOf(earlier, fingerprint);
        const offer = PROVIDER_OFFER_ID.exec(request.provider);
        if (!offer || !round.serves({ providerId: offer[1]! })) {
          throw new HubError("EIN0008", {
            message: `No viable route: provider ${request.provider} is not offered here; take one from a preview.`,
          });
        }
        const quotes = await round.run(route, { providerId: offer[1]!, solverId: offer[2]! }, signal);
        const { row, disclosed } = record(quotes[0]!, caller, fingerprint, request.preparationId);
        const winner: PreparedQuote = { ...disclosed, preparationId: request.preparationId };
        const stored = await quoteStore.insertPrepared({
          ...row,
          winner,
          preparationId: request.preparationId,
        });
        return stored.inserted ? winner : replayOf(stored.quote, fingerprint);
      });
    },
  };
}
