import { HubError, type OpenForAck, type OrderCreateAck } from "@hub/contract";
import type { QuoteForSubmission, Reservation, SubmissionAck } from "../../store/submission-store.js";
import type { Caller } from "../caller.js";

export function openForAck(reservation: Reservation): OpenForAck {
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

export function ownedBy(quote: QuoteForSubmission, caller: Caller): boolean {
  return quote.orgId === caller.organization && quote.subject === caller.subject;
}

/** POST /order's answer for a quote whose order exists: the ack of an acked reservation, else none. */
export function orderAckOf(existing: SubmissionAck | undefined): OrderCreateAck | undefined {
  if (existing?.state !== "acked" || existing.submittedAt === undefined) return undefined;
  return {
    orderId: existing.hubOrderId,
    quoteId: existing.quoteId,
    createdAt: existing.submittedAt.toISOString(),
  };
}

export function unknownOutcome(): HubError {
  return new HubError("EIN0052", {
    message:
      "An earlier submission of this quote went unanswered and may have opened the order. Do not re-quote or re-sign; an operator reconciles it.",
  });
}

export function outboundRefusal(): HubError {
  return new HubError("EIN0081", {
    message: "The hub is busy with this provider; nothing was sent or reserved. Re-post after a back-off.",
  });
}
