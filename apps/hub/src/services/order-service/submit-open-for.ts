import { canonicalSha256, HubError, hubOrderId, type OpenForAck } from "@hub/contract";
import { openForEnvelopeOf } from "../../chains/chain-families.js";
import { completesOnOpenFor, laneTable } from "../../lanes/lane-table.js";
import type { ReleaseSlot } from "../../limits/outbound-limiter.js";
import type { QuoteForSubmission, SubmissionStore } from "../../store/submission-store.js";
import { normaliseOpenForSignature } from "../../submissions/normalise-open-for-signature.js";
import { moveOnExistingReservation } from "../../submissions/reservation-rules.js";
import type { Caller } from "../caller.js";
import { forwardSubmission } from "./forward-submission.js";
import type { OrderServiceDeps } from "./order-service-deps.js";
import { openForAck, outboundRefusal, ownedBy, unknownOutcome } from "./submission-answers.js";

export interface OpenForRequest {
  quoteRequestId: string;
  quoteId: string;
  signature?: string | undefined;
}

/** A request that passed its checks: the caller's quote, its order id and the request's fingerprint. */
interface CheckedOpenFor {
  store: SubmissionStore;
  quote: QuoteForSubmission;
  signature: string | undefined;
  id: string;
  requestFingerprint: string;
}

/** Rounds of read-then-act a submission tries when its compare-and-set loses a race. */
const MAX_ROUNDS = 4;

function expired(): HubError {
  return new HubError("EIN0005", { message: "Quote expired: re-quote and sign again." });
}

async function checkOpenFor(
  deps: OrderServiceDeps,
  request: OpenForRequest,
  caller: Caller,
): Promise<CheckedOpenFor> {
  const store = deps.store;
  const quote = await store?.findQuote(request.quoteId);
  if (!store || !quote || !ownedBy(quote, caller))
    throw new HubError("EIN0001", { reference: "quoteId", message: "Unknown quote: quote again." });
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
  const envelope = openForEnvelopeOf(laneTable[quote.lane].signature);
  if (envelope && signature !== undefined) envelope.verify(quote.template, signature);
  const requestFingerprint = canonicalSha256({
    quoteRequestId: request.quoteRequestId,
    quoteId: request.quoteId,
    signature: signature ?? null,
  });
  return { store, quote, signature, id: hubOrderId(quote.quoteId), requestFingerprint };
}

/**
 * POST /order/openfor: reserves the quote (one row per quote, unique) before anything is forwarded,
 * or takes an existing reservation for a new attempt, then forwards; a lost race reads again.
 */
export async function submitOpenFor(
  deps: OrderServiceDeps,
  request: OpenForRequest,
  caller: Caller,
  signal: AbortSignal | undefined,
): Promise<OpenForAck> {
  const { store, quote, signature, id, requestFingerprint } = await checkOpenFor(deps, request, caller);
  // The outbound slot is taken before the reservation, so a refusal by the limiter leaves none.
  const takeSlot = (): ReleaseSlot => {
    if (!deps.outbound) return () => {};
    const release = deps.outbound.tryAcquire(quote.providerId);
    if (!release) throw outboundRefusal();
    return release;
  };
  const forward = { store, quote, signature, signal };
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const existing = await store.find(id);
    const now = deps.clock.now();
    const registrable = now < quote.registrableUntil.getTime();
    if (!existing) {
      if (!registrable) throw expired();
      const release = takeSlot();
      try {
        const reserved = await store.reserve({
          hubOrderId: id,
          quote,
          route: "openfor",
          requestFingerprint,
          at: new Date(now),
        });
        if (reserved)
          return await forwardSubmission(deps, { ...forward, reservation: reserved, afterDecline: false });
      } finally {
        release();
      }
      continue;
    }
    const move = moveOnExistingReservation(existing.state);
    if (move.kind === "answer-ack") return openForAck(existing);
    if (move.kind === "answer-unknown") throw unknownOutcome();
    if (!registrable) throw expired();
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
        return await forwardSubmission(deps, { ...forward, reservation: taken, afterDecline });
      }
    } finally {
      release();
    }
  }
  throw unknownOutcome();
}
