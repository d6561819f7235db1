import { HubError, type QuoteWinner, signableHash } from "@hub/contract";
import type { Logger } from "pino";
import type { Clock } from "../services/clock.js";
import type {
  ExternalAggregatorClient,
  ExternalQuoteOutcome,
} from "../upstream/external-aggregator-client.js";
import { quoteTerms } from "./disclose-winner.js";
import {
  type OpenFlowLeg,
  type OpenFlowTemplate,
  openFlowTemplateFingerprint,
} from "./open-flow-template.js";
import {
  type CandidateSource,
  MIN_SIGNING_WINDOW_MS,
  type QuoteCandidate,
  type WinnerIdentity,
} from "./quote-candidate.js";
import type { QuoteMetrics } from "./quote-metrics.js";
import type { QuoteRoute, RouteEnd } from "./resolve-quote-route.js";
import { buildSignIntent } from "./sign-intent.js";
import { type VettedExternalQuote, vetExternalQuote } from "./vet-external-quote.js";

export interface ExternalQuoteSourceDeps {
  /** The enabled external aggregators. */
  clients: readonly ExternalAggregatorClient[];
  metrics: QuoteMetrics;
  logger: Logger;
  clock: Clock;
  /** The whole round's deadline (the spec's 15 s by default). */
  deadlineMs: number;
  /**
   * The least validity an open-flow answer must have left when vetted (hub config
   * `openFlowMinValidityMs`, 15 s by default): the user mines two transactions before POST /order.
   */
  openFlowMinValidityMs: number;
}

function legOf(end: RouteEnd, amount: bigint): OpenFlowLeg {
  return {
    chainDomain: end.chain.chainDomain,
    chainId: end.chain.chainId,
    asset: end.asset.key,
    amount: amount.toString(),
  };
}

/**
 * The winner and its stored template. The signable payload commits to the lane, the transactions
 * (open flow) and the terms; signIntent names the signable hash, and is built only when the request
 * named the paying account (POST /order's signer must equal it) on the lanes POST /order registers.
 */
export function discloseExternalWinner(
  quote: VettedExternalQuote,
  route: QuoteRoute,
  identity: WinnerIdentity,
): { winner: QuoteWinner; template: OpenFlowTemplate } {
  const terms = quoteTerms(quote, route);
  const expiresAt = new Date(identity.expiresAtMs).toISOString();
  const sourceAccount = route.sourceAccountSent ? route.user : undefined;
  const signablePayload = {
    kind: quote.lane,
    ...(quote.executionTx ? { executionTx: quote.executionTx } : {}),
    terms: {
      provider: terms.provider,
      input: terms.input,
      output: terms.output,
      swapType: terms.swapType,
      recipient: route.recipient,
      ...(sourceAccount ? { sourceAccount } : {}),
      expiresAt,
    },
  };
  const hash = signableHash(signablePayload) as `0x${string}`;
  // A transfer winner is never registered, so there is nothing for it to sign.
  const signIntent =
    sourceAccount &&
    quote.lane !== "transfer" &&
    buildSignIntent({
      lane: quote.lane,
      quoteId: identity.quoteId,
      signableHash: hash,
      sourceAccount,
      input: { end: route.source, amount: quote.inputAmount },
      output: { end: route.destination, amount: quote.outputAmount },
      recipient: route.recipient,
      expiresAt,
    });
  const winner: QuoteWinner = {
    quoteRequestId: identity.quoteRequestId,
    quoteId: identity.quoteId,
    expiresAt,
    ...terms,
    recipient: route.recipient,
    ...(sourceAccount ? { sourceAccount } : {}),
    disclosure: { signablePayload, signableHash: hash },
    ...(quote.executionTx ? { executionTx: quote.executionTx } : {}),
    ...(signIntent ? { signIntent } : {}),
  };
  const unsigned: Omit<OpenFlowTemplate, "fingerprint"> = {
    version: 1,
    kind: "external",
    lane: quote.lane,
    providerId: quote.providerId,
    solverId: quote.solverId,
    upstreamQuoteId: quote.upstreamQuoteId,
    quoteResponse: quote.quoteResponse,
    signableHash: hash,
    ...(signIntent ? { signIntent } : {}),
    ...(sourceAccount ? { sourceAccount } : {}),
    recipient: route.recipient,
    source: legOf(route.source, quote.inputAmount),
    destination: legOf(route.destination, quote.outputAmount),
    ...(quote.deposit ? { deposit: quote.deposit } : {}),
  };
  return { winner, template: { ...unsigned, fingerprint: openFlowTemplateFingerprint(unsigned) } };
}

/** A vetted external answer as a candidate of the round. */
export function externalCandidate(
  quote: VettedExternalQuote,
  route: QuoteRoute,
  openFlowMinValidityMs: number,
): QuoteCandidate {
  return {
    providerId: quote.providerId,
    solverId: quote.solverId,
    offerProvider: quote.offerProvider,
    lane: quote.lane,
    executionClass: quote.executionClass,
    upstreamQuoteId: quote.upstreamQuoteId,
    inputAmount: quote.inputAmount,
    outputAmount: quote.outputAmount,
    etaSeconds: quote.etaSeconds,
    validUntilMs: quote.validUntilMs,
    registrableForMs: undefined,
    ...(quote.lane === "open-flow" ? { minValidityMs: openFlowMinValidityMs } : {}),
    onchainOrderId: undefined,
    disclose: (identity) => {
      const { winner, template } = discloseExternalWinner(quote, route, identity);
      return { winner, template: template as unknown as Record<string, unknown> };
    },
  };
}

function noRoute(message: string): HubError {
  return new HubError("EIN0008", { message: `No viable route: ${message}` });
}

/**
 * The external aggregators as a source of quote rounds: each enabled one in scope is asked once,
 * under its timeout, the round's deadline and the caller's signal; every answer is vetted before it
 * can win. Proxy-lane sources (native coin, undeclared token) and exact-output requests are not theirs:
 * for those the source contributes no candidate and no refusal, so another source's refusal (a
 * retryable EIN0050 or EIN0081 of a provider that is down) is the answer, not a terminal EIN0008.
 */
export function createExternalQuoteSource(deps: ExternalQuoteSourceDeps): CandidateSource {
  const { metrics, logger, clock } = deps;
  const inScope = (scope: { providerId?: string }) =>
    deps.clients.filter(
      (client) => scope.providerId === undefined || client.provider.id === scope.providerId,
    );

  async function ask(
    client: ExternalAggregatorClient,
    route: QuoteRoute,
    scope: { solverId?: string },
    signal: AbortSignal,
  ): Promise<{ kind: ExternalQuoteOutcome["kind"]; candidates: QuoteCandidate[] }> {
    const providerId = client.provider.id;
    const outcome = await client.quote(
      {
        sourceAsset: route.source.asset.key,
        destinationAsset: route.destination.asset.key,
        amount: route.amount.toString(),
        recipient: route.recipient,
        ...(route.sourceAccountSent ? { sourceAccount: route.user } : {}),
      },
      signal,
    );
    metrics.providerOutcome(providerId, outcome.kind === "quote" ? "quotes" : outcome.kind);
    if (outcome.kind !== "quote") {
      if (outcome.kind !== "no-quotes") {
        logger.warn({ provider: providerId, outcome }, "external aggregator gave no quote to a round");
      }
      return { kind: outcome.kind, candidates: [] };
    }
    const vetted = vetExternalQuote(outcome.quote, {
      providerId,
      route,
      nowMs: clock.now(),
      minValidityMs: MIN_SIGNING_WINDOW_MS,
      openFlowMinValidityMs: deps.openFlowMinValidityMs,
    });
    if (!vetted.ok) {
      metrics.vettingRejected(providerId, vetted.reason);
      logger.warn(
        {
          provider: providerId,
          upstreamQuoteId: vetted.upstreamQuoteId,
          reason: vetted.reason,
          detail: vetted.detail,
        },
        "external quote discarded by vetting",
      );
      return { kind: "quote", candidates: [] };
    }
    if (scope.solverId !== undefined && vetted.quote.solverId !== scope.solverId) {
      return { kind: "quote", candidates: [] };
    }
    return {
      kind: "quote",
      candidates: [externalCandidate(vetted.quote, route, deps.openFlowMinValidityMs)],
    };
  }

  return {
    serves: (scope) => inScope(scope).length > 0,

    async run(route, scope, signal) {
      if (route.proxy || route.swapType !== "exact-input") return [];
      const clients = inScope(scope);
      if (clients.length === 0) throw noRoute("no external aggregator is in scope.");
      const deadline = AbortSignal.timeout(deps.deadlineMs);
      const roundSignal = signal ? AbortSignal.any([signal, deadline]) : deadline;
      const results = await Promise.all(clients.map((client) => ask(client, route, scope, roundSignal)));
      const candidates = results.flatMap((result) => result.candidates);
      if (candidates.length > 0) return candidates;
      signal?.throwIfAborted();

      const kinds = new Set(results.map((result) => result.kind));
      if (kinds.has("quote") || kinds.has("no-quotes") || kinds.has("refused")) {
        throw noRoute("no external aggregator offered a quote that passed the hub's checks.");
      }
      if (kinds.has("rate-limited")) throw new HubError("EIN0081");
      if (kinds.has("auth-refused")) throw new HubError("EIN0050", { params: ["upstreamAuth"] });
      throw new HubError("EIN0050");
    },
  };
}
