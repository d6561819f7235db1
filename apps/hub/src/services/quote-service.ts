import {
  type Catalog,
  HubError,
  newOpaqueId,
  type PreparedQuote,
  type PrepareQuoteRequest,
  type QuotePreview,
  type QuoteRequest,
  type QuoteWinner,
} from "@hub/contract";
import type { Logger } from "pino";
import { oifCandidate, quoteTerms } from "../quotes/disclose-winner.js";
import { proxyLaneCandidates } from "../quotes/proxy-lane-candidate.js";
import {
  type CandidateSource,
  MIN_SIGNING_WINDOW_MS,
  type QuoteCandidate,
} from "../quotes/quote-candidate.js";
import type { QuoteMetrics } from "../quotes/quote-metrics.js";
import type { NewQuote, QuoteStore, StoredQuote } from "../store/quote-store.js";
import { compareQuotes } from "../quotes/rank-quotes.js";
import { requestFingerprint } from "../quotes/request-fingerprint.js";
import { type QuoteRoute, resolveQuoteRoute } from "../quotes/resolve-quote-route.js";
import { createQuoteRound, type QuoteRoundScope } from "../quotes/run-quote-round.js";
import { createSwapRouterReader } from "../quotes/swap-router-reader.js";
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
  /** Absent: the hub has no OIF provider. */
  providers: ProviderClients | undefined;
  /** Further sources of candidates beside the OIF providers (external aggregators). */
  extraSources?: readonly CandidateSource[];
  quoteStore: QuoteStore | undefined;
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  replicaId: string;
  quoteDeadlineMs: number;
  quoteLifetimeMs: number;
  /** How long a proxy-lane winner stays registrable (20 min by default). */
  proxyTemplateHoldMs: number;
  /** EVM chains the hub may read at quote time, by chain id. */
  chains: readonly { chainId: number; rpcUrl: string }[];
  /** One quote-time chain read's timeout (the swap router on oif-swap-token); 2 s by default. */
  chainReadTimeoutMs?: number;
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
  const proxyLanes = {
    reader: createSwapRouterReader({
      chains: deps.chains,
      timeoutMs: deps.chainReadTimeoutMs ?? 2000,
      logger: deps.logger,
    }),
    holdMs: deps.proxyTemplateHoldMs,
  };
  const oifSource: CandidateSource | undefined = round && {
    serves: (scope) =>
      deps.providers?.enabled.some(
        (client) => scope.providerId === undefined || client.provider.id === scope.providerId,
      ) ?? false,
    run: async (route, scope, signal) =>
      route.proxy
        ? proxyLaneCandidates(route, proxyLanes, (upstreamRoute) => round.run(upstreamRoute, scope, signal))
        : (await round.run(route, scope, signal)).map((quote) => oifCandidate(quote, route)),
  };
  const sources: CandidateSource[] = [...(oifSource ? [oifSource] : []), ...(deps.extraSources ?? [])];

  /**
   * Asks every source in scope in parallel. Any candidate wins over every refusal; with none, the
   * refusal that says most: no viable route (EIN0008) over busy (EIN0081) over unavailable (EIN0050).
   */
  async function candidatesFor(
    route: QuoteRoute,
    scope: QuoteRoundScope,
    signal: AbortSignal | undefined,
  ): Promise<QuoteCandidate[]> {
    const inScope = sources.filter((source) => source.serves(scope));
    if (inScope.length === 0) throw noProvider();
    const settled = await Promise.allSettled(inScope.map((source) => source.run(route, scope, signal)));
    // A candidate vetted early may have run out of time while another source was still answering.
    const endMs = clock.now();
    const candidates = settled
      .flatMap((result) => (result.status === "fulfilled" ? result.value : []))
      .filter((candidate) => {
        if (candidate.validUntilMs - endMs >= (candidate.minValidityMs ?? MIN_SIGNING_WINDOW_MS)) return true;
        deps.metrics.vettingRejected(candidate.providerId, "expired");
        deps.logger.warn(
          {
            provider: candidate.providerId,
            solverId: candidate.solverId,
            lane: candidate.lane,
            reason: "expired",
          },
          "quote discarded: too little validity left when every source had answered",
        );
        return false;
      });
    if (candidates.length > 0) return candidates.sort((a, b) => compareQuotes(a, b, route.swapType));
    signal?.throwIfAborted();
    const refusals = settled.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
    for (const code of ["EIN0008", "EIN0081", "EIN0050"]) {
      const refusal = refusals.find((reason) => reason instanceof HubError && reason.code === code);
      if (refusal) throw refusal;
    }
    if (refusals[0] !== undefined) throw refusals[0];
    throw new HubError("EIN0008", { message: "No viable route: no provider offered a quote." });
  }

  async function vettedQuotes(
    request: QuoteRequest,
    scope: QuoteRoundScope,
    signal: AbortSignal | undefined,
  ): Promise<{ route: QuoteRoute; quotes: QuoteCandidate[] }> {
    const route = resolveQuoteRoute(catalog, request);
    return { route, quotes: await candidatesFor(route, scope, signal) };
  }

  function record(
    winner: QuoteCandidate,
    caller: QuoteCaller,
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
    quote(request, caller, signal) {
      return admission.run(async () => {
        const { quotes } = await vettedQuotes(request, {}, signal);
        if (!quoteStore) throw noProvider();
        const { row, disclosed } = record(quotes[0]!, caller, requestFingerprint(request), null);
        await quoteStore.insert(row);
        return disclosed;
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
        if (!quoteStore) throw noProvider();
        const fingerprint = requestFingerprint(request);
        const earlier = await quoteStore.findPrepared(
          caller.organization,
          caller.subject,
          request.preparationId,
        );
        if (earlier) return replayOf(earlier, fingerprint);
        const route = resolveQuoteRoute(catalog, request);
        const offer = PROVIDER_OFFER_ID.exec(request.provider);
        if (!offer || !sources.some((source) => source.serves({ providerId: offer[1]! }))) {
          throw new HubError("EIN0008", {
            message: `No viable route: provider ${request.provider} is not offered here; take one from a preview.`,
          });
        }
        const quotes = await candidatesFor(route, { providerId: offer[1]!, solverId: offer[2]! }, signal);
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
