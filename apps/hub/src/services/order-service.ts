import type { Clock } from "@hub/clock";
import {
  canonicalSha256,
  HubError,
  hubOrderId,
  type OpenForAck,
  type OrderCreateAck,
  type OrderCreateRequest,
} from "@hub/contract";
import { isUniqueViolation } from "@hub/store";
import type { Logger } from "pino";
import { completesOnOpenFor, laneTable } from "../lanes/lane-table.js";
import type { OutboundLimiter, ReleaseSlot } from "../limits/outbound-limiter.js";
import { type ProviderState, reapproveOpenFlowQuote } from "../open-flow/reapprove-open-flow-quote.js";
import { verifyOpenFlowSignature } from "../open-flow/verify-open-flow-signature.js";
import { solanaQuoteBlockOf } from "../quotes/quote-template.js";
import type { OpenFlowStore } from "../store/open-flow-store.js";
import type {
  QuoteForSubmission,
  Reservation,
  SubmissionAck,
  SubmissionStore,
} from "../store/submission-store.js";
import { firstUpstreamView } from "../submissions/first-upstream-view.js";
import { normaliseOpenForSignature } from "../submissions/normalise-open-for-signature.js";
import { onchainOrderIdOf } from "../submissions/onchain-order-id.js";
import {
  type ForwardEnding,
  moveOnExistingReservation,
  settleForward,
} from "../submissions/reservation-rules.js";
import { verifySolanaEnvelope } from "../submissions/verify-solana-envelope.js";
import type { SubmitOrderOutcome } from "../upstream/oif-aggregator-client.js";
import type { Caller } from "./caller.js";

export interface OrderService {
  submitOpenFor(
    request: { quoteRequestId: string; quoteId: string; signature?: string | undefined },
    caller: Caller,
    signal: AbortSignal | undefined,
  ): Promise<OpenForAck>;
  createOrder(request: OrderCreateRequest, caller: Caller): Promise<OrderCreateAck>;
}

/** The one call of the upstream a submission makes (the provider's OIF aggregator client). */
export interface OrderUpstream {
  submitOrder(
    input: { quoteResponse: unknown; signature?: string },
    signal?: AbortSignal,
  ): Promise<SubmitOrderOutcome>;
}

export interface OrderServiceDeps {
  /** Absent: the hub has no database, so it holds no quote and every quote reference is unknown. */
  store: SubmissionStore | undefined;
  /** The client of a configured provider by id. */
  upstreamOf(providerId: string): OrderUpstream | undefined;
  /** The per-provider outbound cap; a submission past it is refused before anything is reserved. */
  outbound?: OutboundLimiter;
  clock: Clock;
  logger: Pick<Logger, "info" | "warn" | "error">;
  /** POST /order's registrations (absent without a database, like store). */
  registrations?: OpenFlowStore | undefined;
  /** Whether a provider is still configured in this deployment, and enabled. */
  providerState?: (providerId: string) => ProviderState;
  /** Config unsignedOpenFlowRegistration: POST /order admits none of signature, signer and scheme. */
  unsignedOpenFlowRegistration?: boolean;
}

/** Rounds of read-then-act a submission tries when its compare-and-set loses a race. */
const MAX_ROUNDS = 4;

function openForAck(reservation: Reservation): OpenForAck {
  if (reservation.onchainOrderId === undefined || reservation.submittedAt === undefined) {
    throw new Error(`acked reservation ${reservation.hubOrderId} has no on-chain id or submittedAt`);
  }
  return {
    orderId: reservation.onchainOrderId,
    hubOrderId: reservation.hubOrderId,
    quoteId: reservation.quoteId,
    state: "created",
    submittedAt: reservation.submittedAt.toISOString(),
  };
}

function ownedBy(quote: QuoteForSubmission, caller: Caller): boolean {
  return quote.orgId === caller.organization && quote.subject === caller.subject;
}

/** POST /order's answer for a quote whose order exists: the ack of an acked reservation, else none. */
function orderAckOf(existing: SubmissionAck | undefined): OrderCreateAck | undefined {
  if (existing?.state !== "acked" || existing.submittedAt === undefined) return undefined;
  return {
    orderId: existing.hubOrderId,
    quoteId: existing.quoteId,
    createdAt: existing.submittedAt.toISOString(),
  };
}

function unknownOutcome(): HubError {
  return new HubError("EIN0052", {
    message:
      "An earlier submission of this quote went unanswered and may have opened the order. Do not re-quote or re-sign; an operator reconciles it.",
  });
}

function outboundRefusal(): HubError {
  return new HubError("EIN0081", {
    message: "The hub is busy with this provider; nothing was sent or reserved. Re-post after a back-off.",
  });
}

function endingOf(outcome: SubmitOrderOutcome): ForwardEnding {
  return outcome.kind === "accepted" ? { kind: "accepted" } : { kind: outcome.kind };
}

function detailOf(outcome: SubmitOrderOutcome): string {
  switch (outcome.kind) {
    case "accepted":
      return `accepted ${outcome.orderId}`;
    case "solver-rejected":
      return `SOLVER_REJECTED: ${outcome.message}`;
    case "rate-limited":
      return `upstream 429, Retry-After ${outcome.retryAfterSeconds ?? "none"}`;
    case "refused":
      return `upstream ${outcome.httpStatus} ${outcome.error ?? ""}: ${outcome.message}`;
    case "auth-refused":
      return `upstream ${outcome.httpStatus}: the hub's credential was refused`;
    case "not-sent":
    case "unknown":
      return outcome.cause;
  }
}

const REFUSAL_MESSAGES: Partial<Record<string, string>> = {
  EIN0021:
    "The solver declined the signed order; nothing was opened. Re-quote and sign again; do not re-post.",
  EIN0007: "Rejected: the upstream refused the registration.",
};

/**
 * Submissions. POST /order/openfor reserves the quote (one row per quote, unique) before anything is
 * forwarded, forwards the stored upstream quote with the signature under the caller's signal, and
 * writes the outcome to its own attempt of the reservation. POST /order registers an open-flow or
 * solver-swap winner in one insert after the spec's checks, in the spec's order (see createOrder).
 */
export function createOrderService(deps: OrderServiceDeps): OrderService {
  const { clock, logger } = deps;

  async function ownQuote(
    quoteId: string,
    caller: Caller,
  ): Promise<{ quote: QuoteForSubmission; store: SubmissionStore } | undefined> {
    const store = deps.store;
    const quote = await store?.findQuote(quoteId);
    if (!store || !quote || !ownedBy(quote, caller)) return undefined;
    return { quote, store };
  }

  async function forward(
    store: SubmissionStore,
    quote: QuoteForSubmission,
    reservation: Reservation,
    afterDecline: boolean,
    signature: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<OpenForAck> {
    const { hubOrderId: id, attempt } = reservation;
    const upstream = deps.upstreamOf(quote.providerId);
    const outcome: SubmitOrderOutcome = upstream
      ? await upstream.submitOrder(
          { quoteResponse: quote.template.quoteResponse, ...(signature === undefined ? {} : { signature }) },
          signal,
        )
      : { kind: "not-sent", cause: `provider ${quote.providerId} is not configured` };

    let ending = endingOf(outcome);
    let detail = detailOf(outcome);
    let onchainOrderId: `0x${string}` | undefined;
    if (outcome.kind === "accepted") {
      onchainOrderId = onchainOrderIdOf(outcome.orderId);
      if (onchainOrderId === undefined) {
        ending = { kind: "accepted-unverifiable" };
        detail = `accepted, but the upstream order id ${JSON.stringify(outcome.orderId)} is not an on-chain id`;
      } else if (quote.onchainOrderId !== undefined && quote.onchainOrderId !== onchainOrderId) {
        ending = { kind: "accepted-unverifiable" };
        detail = `accepted as ${onchainOrderId}, but the quote's recomputed on-chain id is ${quote.onchainOrderId}`;
      }
    }
    const settlement = settleForward(ending, { afterDecline });
    const at = new Date(clock.now());

    let settled: Reservation | undefined;
    if (settlement.state === "acked" && outcome.kind === "accepted" && onchainOrderId !== undefined) {
      try {
        settled = await store.settle(id, attempt, {
          state: "acked",
          at,
          upstreamOrderId: outcome.orderId,
          onchainOrderId,
          onchainOrderIdSource: quote.onchainOrderId === undefined ? "upstream" : "verified",
          view: firstUpstreamView(at),
        });
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        logger.error(
          { hubOrderId: id, onchainOrderId },
          "upstream acked an on-chain id another submission holds",
        );
        settled = await store.settle(id, attempt, {
          state: "unknown",
          code: "EIN0050",
          detail: `accepted as ${onchainOrderId}, which another submission holds`,
        });
        if (settled) throw new HubError("EIN0050");
      }
    } else {
      settled = await store.settle(id, attempt, {
        state: settlement.state as "unknown" | "refused" | "released",
        code: settlement.code ?? "EIN0050",
        detail,
      });
    }
    if (!settled) {
      // An operator reconciled this attempt while it was under way: answer from what they decided.
      const current = await store.find(id);
      if (current?.state === "acked") return openForAck(current);
      throw unknownOutcome();
    }
    logger.info(
      { hubOrderId: id, attempt, outcome: outcome.kind, state: settled.state, detail },
      "submission forwarded",
    );
    if (settled.state === "acked") return openForAck(settled);
    const code = settlement.code ?? "EIN0050";
    throw new HubError(code, {
      ...(settlement.params ? { params: settlement.params } : {}),
      ...(REFUSAL_MESSAGES[code] ? { message: REFUSAL_MESSAGES[code] } : {}),
    });
  }

  /** Checks 3 to 7 and the one insert of a first registration (a quote without an order yet). */
  async function registerFirst(
    request: OrderCreateRequest,
    quote: QuoteForSubmission,
    id: string,
  ): Promise<OrderCreateAck> {
    const now = clock.now();
    if (now >= quote.expiresAt.getTime()) {
      throw new HubError("EIN0005", {
        message:
          "Quote expired: a first registration is refused at or after expiresAt. A transaction already sent completes on chain unregistered; do not re-quote for it.",
      });
    }
    const providerState = deps.providerState?.(quote.providerId) ?? "unconfigured";
    if (providerState === "unconfigured" || !deps.registrations) {
      throw new HubError("EIN0007", {
        reference: "quoteId",
        message: "The provider of this quote is no longer configured on this deployment.",
      });
    }
    const template = reapproveOpenFlowQuote(quote, providerState);
    if (request.artifactHash.toLowerCase() !== template.signableHash.toLowerCase()) {
      throw new HubError("EIN0010", {
        reference: "artifactHash",
        message: "artifactHash is not the quote's disclosure.signableHash.",
      });
    }
    const signature = await verifyOpenFlowSignature(template, request, {
      unsignedAllowed: deps.unsignedOpenFlowRegistration ?? false,
    });
    const { created, ack } = await deps.registrations.register({
      hubOrderId: id,
      quote,
      lane: template.lane,
      requestFingerprint: canonicalSha256({
        quoteId: request.quoteId,
        artifactHash: request.artifactHash.toLowerCase(),
        signature: signature ?? null,
      }),
      signature,
      at: new Date(now),
    });
    if (created) {
      logger.info(
        { hubOrderId: id, quoteId: quote.quoteId, lane: template.lane, signed: signature !== undefined },
        "open-flow order registered",
      );
    }
    return ack;
  }

  return {
    async submitOpenFor(request, caller, signal) {
      const owned = await ownQuote(request.quoteId, caller);
      if (!owned)
        throw new HubError("EIN0001", { reference: "quoteId", message: "Unknown quote: quote again." });
      const { quote, store } = owned;
      if (quote.quoteRequestId !== request.quoteRequestId) {
        throw new HubError("EIN0001", {
          reference: "quoteRequestId",
          message: "quoteRequestId is not the round of this quote.",
        });
      }
      if (!completesOnOpenFor(quote.lane)) {
        throw new HubError("EIN0001", {
          reference: "quoteId",
          message: "This winner does not complete here: register it with POST /order.",
        });
      }
      const signature = normaliseOpenForSignature(quote.lane, request.signature);
      // Checked before anything is reserved or forwarded: a bad envelope leaves no trace.
      if (laneTable[quote.lane].signature === "solana-envelope" && signature !== undefined)
        verifySolanaEnvelope(solanaQuoteBlockOf(quote.template), signature);
      const id = hubOrderId(quote.quoteId);
      const requestFingerprint = canonicalSha256({
        quoteRequestId: request.quoteRequestId,
        quoteId: request.quoteId,
        signature: signature ?? null,
      });

      // The outbound slot is taken before the reservation, so a refusal by the limiter leaves none.
      const takeSlot = (): ReleaseSlot => {
        if (!deps.outbound) return () => {};
        const release = deps.outbound.tryAcquire(quote.providerId);
        if (!release) throw outboundRefusal();
        return release;
      };

      for (let round = 0; round < MAX_ROUNDS; round += 1) {
        const existing = await store.find(id);
        const now = clock.now();
        const registrable = now < quote.registrableUntil.getTime();
        if (!existing) {
          if (!registrable)
            throw new HubError("EIN0005", { message: "Quote expired: re-quote and sign again." });
          const release = takeSlot();
          try {
            const reserved = await store.reserve({
              hubOrderId: id,
              quote,
              route: "openfor",
              requestFingerprint,
              at: new Date(now),
            });
            if (reserved) return await forward(store, quote, reserved, false, signature, signal);
          } finally {
            release();
          }
          continue;
        }
        const move = moveOnExistingReservation(existing.state);
        if (move.kind === "answer-ack") return openForAck(existing);
        if (move.kind === "answer-unknown") throw unknownOutcome();
        if (!registrable)
          throw new HubError("EIN0005", { message: "Quote expired: re-quote and sign again." });
        const release = takeSlot();
        try {
          const taken = await store.takeForNewAttempt({
            hubOrderId: id,
            fromState: existing.state,
            fromAttempt: existing.attempt,
            requestFingerprint,
          });
          if (taken) {
            const afterDecline = existing.state === "refused" && existing.lastCode === "EIN0021";
            return await forward(store, quote, taken, afterDecline, signature, signal);
          }
        } finally {
          release();
        }
      }
      throw unknownOutcome();
    },

    // The spec's order: the quote's own checks (EIN0010); an existing order's ack; expiry (EIN0005);
    // configuration and re-approval (EIN0007); artifactHash and signature (EIN0010, EIN0006).
    async createOrder(request, caller) {
      const store = deps.store;
      // The quote and its order, when there is one, in one read: hubOrderId(quoteId) names the order.
      const id = hubOrderId(request.quoteId);
      const found = await store?.findQuoteForOrder(request.quoteId, id);
      if (!store || !found || !ownedBy(found.quote, caller)) {
        throw new HubError("EIN0010", { reference: "quoteId", message: "Unknown quote." });
      }
      const { quote } = found;
      const ack = orderAckOf(found.submission);
      if (ack) return ack;
      try {
        return await registerFirst(request, quote, id);
      } catch (error) {
        // A repeat that raced the first registration ran its checks before that order committed;
        // once the order exists every repeat is answered its ack, whatever it carries (rule 6).
        const raced = error instanceof HubError ? orderAckOf(await store.find(id)) : undefined;
        if (raced) return raced;
        throw error;
      }
    },
  };
}
