import { standardOrderToJson } from "@hub/chain";
import {
  type Catalog,
  HubError,
  type PrepareQuoteRequest,
  type PreparedQuote,
  type QuotePreview,
  type QuoteRequest,
  type QuoteWinner,
  newOpaqueId,
} from "@hub/contract";
import type { Logger } from "pino";
import { discloseWinner, quoteTerms } from "../quotes/disclose-winner.js";
import { quoteLanes } from "../quotes/quote-lanes.js";
import type { QuoteMetrics } from "../quotes/quote-metrics.js";
import type { NewQuote, QuoteStore, StoredQuote } from "../quotes/quote-store.js";
import type { QuoteTemplate } from "../quotes/quote-template.js";
import { requestFingerprint } from "../quotes/request-fingerprint.js";
import { type QuoteRoute, resolveQuoteRoute } from "../quotes/resolve-quote-route.js";
import { type QuoteRoundScope, createQuoteRound } from "../quotes/run-quote-round.js";
import type { VettedQuote } from "../quotes/vet-quote.js";
import type { ProviderClients } from "../upstream/provider-clients.js";
import type { Clock } from "./clock.js";
import type { QuoteAdmission } from "./quote-admission.js";

/** Who asked: the organization the gateway set and the subject the caller sent. */
export interface QuoteCaller {
  organization: string;
  subject: string;
}

export interface QuoteService {
  /** POST /quote: one round, the winner disclosed and stored. */
  quote(request: QuoteRequest, caller: QuoteCaller, signal: AbortSignal | undefined): Promise<QuoteWinner>;
  /** POST /quote/preview: indicative offers of every provider, best first; nothing stored. */
  preview(request: QuoteRequest, caller: QuoteCaller, signal: AbortSignal | undefined): Promise<QuotePreview>;
  /** POST /quote/prepare: the chosen provider's winner under the client's preparationId. */
  prepare(
    request: PrepareQuoteRequest,
    caller: QuoteCaller,
    signal: AbortSignal | undefined,
  ): Promise<PreparedQuote>;
}

export interface QuoteServiceDeps {
  admission: QuoteAdmission;
  catalog: Catalog;
  /** Absent: the hub has no provider, and every round ends with no viable route (EIN0008). */
  providers: ProviderClients | undefined;
  quoteStore: QuoteStore | undefined;
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  replicaId: string;
  quoteDeadlineMs: number;
  quoteLifetimeMs: number;
}

const PROVIDER_OFFER_ID = /^([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9._-]{1,31})$/;

function noProvider(): HubError {
  return new HubError("EIN0008", { message: "No viable route: no quote provider is configured." });
}

/** Quote rounds behind the three quote routes, inside the in-flight admission (EIN0081 past the cap). */
export function createQuoteService(deps: QuoteServiceDeps): QuoteService {
  const { admission, catalog, clock, replicaId, quoteStore } = deps;
  const round =
    deps.providers &&
    createQuoteRound({
      providers: deps.providers.enabled,
      metrics: deps.metrics,
      logger: deps.logger,
      clock,
      deadlineMs: deps.quoteDeadlineMs,
    });

  async function vettedQuotes(
    request: QuoteRequest,
    scope: QuoteRoundScope,
    signal: AbortSignal | undefined,
  ): Promise<{ route: QuoteRoute; quotes: VettedQuote[] }> {
    const route = resolveQuoteRoute(catalog, request);
    if (!round) throw noProvider();
    return { route, quotes: await round.run(route, scope, signal) };
  }

  function record(
    winner: VettedQuote,
    route: QuoteRoute,
    caller: QuoteCaller,
    fingerprint: string,
    preparationId: string | null,
  ): { row: NewQuote; identity: { quoteRequestId: string; quoteId: string; expiresAtMs: number } } {
    const issuedAtMs = clock.now();
    // About 30 s, never past the upstream's own validity.
    const expiresAtMs = Math.min(issuedAtMs + deps.quoteLifetimeMs, winner.validUntil * 1000);
    const identity = {
      quoteRequestId: newOpaqueId("qr", replicaId),
      quoteId: newOpaqueId("q", replicaId),
      expiresAtMs,
    };
    const template: QuoteTemplate = {
      version: 1,
      providerId: winner.providerId,
      solverId: winner.solverId,
      lane: winner.lane,
      orderType: quoteLanes[winner.lane].product,
      signatureScheme: quoteLanes[winner.lane].scheme,
      quoteResponse: winner.quoteResponse,
      standardOrder: standardOrderToJson(winner.order),
      typedDataHash: winner.typedDataHash,
      ...(winner.onchainOrderId === undefined ? {} : { onchainOrderId: winner.onchainOrderId }),
      onchainOrderIdSource: winner.onchainOrderId === undefined ? "upstream" : "verified",
      user: route.user,
      recipient: route.recipient,
      validUntil: winner.validUntil,
    };
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
      winner: {},
      template,
      onchainOrderId: winner.onchainOrderId ?? null,
      issuedAt: new Date(issuedAtMs),
      expiresAt: new Date(expiresAtMs),
      registrableUntil: new Date(expiresAtMs),
    };
    return { row, identity };
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
    quote(request, caller, signal) {
      return admission.run(async () => {
        const { route, quotes } = await vettedQuotes(request, {}, signal);
        if (!quoteStore) throw noProvider();
        const { row, identity } = record(quotes[0]!, route, caller, requestFingerprint(request), null);
        const winner = discloseWinner(quotes[0]!, route, identity);
        await quoteStore.insert({ ...row, winner });
        return winner;
      });
    },

    preview(request, _caller, signal) {
      return admission.run(async () => {
        const { route, quotes } = await vettedQuotes(request, {}, signal);
        return {
          quoteRequestId: newOpaqueId("qr", replicaId),
          offers: quotes.map((quote) => ({
            ...quoteTerms(quote, route),
            ...(quote.etaSeconds === undefined ? {} : { etaSeconds: quote.etaSeconds }),
          })),
        };
      });
    },

    prepare(request, caller, signal) {
      return admission.run(async () => {
        if (!quoteStore || !round) throw noProvider();
        const fingerprint = requestFingerprint(request);
        const earlier = await quoteStore.findPrepared(
          caller.organization,
          caller.subject,
          request.preparationId,
        );
        if (earlier) return replayOf(earlier, fingerprint);
        const route = resolveQuoteRoute(catalog, request);
        const offer = PROVIDER_OFFER_ID.exec(request.provider);
        if (!offer || !deps.providers?.enabled.some((client) => client.provider.id === offer[1])) {
          throw new HubError("EIN0008", {
            message: `No viable route: provider ${request.provider} is not offered here; take one from a preview.`,
          });
        }
        const quotes = await round.run(route, { providerId: offer[1]!, solverId: offer[2]! }, signal);
        const { row, identity } = record(quotes[0]!, route, caller, fingerprint, request.preparationId);
        const winner: PreparedQuote = {
          ...discloseWinner(quotes[0]!, route, identity),
          preparationId: request.preparationId,
        };
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
