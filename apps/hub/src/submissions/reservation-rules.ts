import type { ReservationState } from "@hub/admin";
import type { ErrorCode } from "@hub/contract";

/** What a submission does when it finds its quote already reserved. */
export type ExistingReservationMove =
  | { kind: "answer-ack" }
  | { kind: "answer-unknown" }
  | { kind: "forward-again" };

/**
 * A re-post finds the reservation: acked answers the same ack; forwarding or unknown answers EIN0052
 * (the earlier forward may have opened the order); refused or released forwards again, taking the
 * row by compare-and-set on (state, attempt).
 */
export function moveOnExistingReservation(state: ReservationState): ExistingReservationMove {
  switch (state) {
    case "acked":
      return { kind: "answer-ack" };
    case "forwarding":
    case "unknown":
      return { kind: "answer-unknown" };
    case "refused":
    case "released":
      return { kind: "forward-again" };
  }
}

/** How one forward to the upstream ended, as the reservation rules read it. */
export type ForwardEnding =
  | { kind: "accepted" }
  /** The upstream accepted, but its order id is not the one the hub can stand behind. */
  | { kind: "accepted-unverifiable" }
  | { kind: "solver-rejected" }
  | { kind: "rate-limited" }
  | { kind: "refused" }
  | { kind: "auth-refused" }
  | { kind: "not-sent" }
  | { kind: "unknown" };

/** The state a forward leaves the reservation in, and the code answered (none: the ack). */
export interface ForwardSettlement {
  state: Exclude<ReservationState, "forwarding">;
  code?: ErrorCode;
  params?: readonly string[];
}

/**
 * The outcome rules of POST /order/openfor (spec rules 4, 5, 7, 8). `afterDecline` is set on a forward
 * of a quote the solver already declined (EIN0021): the upstream has spent that quote, so any answer
 * but an acceptance says nothing the hub can rely on, and the reservation becomes unknown (rule 7:
 * a re-post after EIN0021 answers EIN0050, then EIN0052). Only a forward that provably sent nothing
 * releases the reservation.
 */
export function settleForward(ending: ForwardEnding, context: { afterDecline: boolean }): ForwardSettlement {
  switch (ending.kind) {
    case "accepted":
      return { state: "acked" };
    case "not-sent":
      return { state: "released", code: "EIN0050" };
    case "auth-refused":
      return { state: "released", code: "EIN0050", params: ["upstreamAuth"] };
    case "accepted-unverifiable":
    case "unknown":
      return { state: "unknown", code: "EIN0050" };
    case "rate-limited":
      return { state: "unknown", code: "EIN0081" };
    case "solver-rejected":
      return context.afterDecline
        ? { state: "unknown", code: "EIN0050" }
        : { state: "refused", code: "EIN0021" };
    case "refused":
      return context.afterDecline
        ? { state: "unknown", code: "EIN0050" }
        : { state: "refused", code: "EIN0007" };
  }
}
