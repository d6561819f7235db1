/** Why an operator's reservation request was refused. */
export type ReservationRefusalCode =
  | "reservation-not-found"
  | "reservation-not-pending"
  | "invalid-onchain-order-id"
  | "onchain-order-id-mismatch"
  | "onchain-order-id-taken"
  | "opened-on-chain";

/** A refusal of `hub admin reservations`, with a message an operator can act on. */
export class ReservationRefusal extends Error {
  override readonly name = "ReservationRefusal";
  constructor(
    readonly code: ReservationRefusalCode,
    message: string,
  ) {
    super(message);
  }
}
