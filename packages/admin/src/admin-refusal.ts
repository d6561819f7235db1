export type AdminRefusalCode =
  | "invalid-argument"
  | "invalid-origin"
  | "invalid-email"
  | "account-exists"
  | "organization-not-found"
  | "project-not-found"
  | "key-not-found"
  | "key-revoked"
  | "organization-has-project"
  | "reservation-not-found"
  | "reservation-not-pending"
  | "invalid-onchain-order-id"
  | "onchain-order-id-mismatch"
  | "onchain-order-id-taken"
  | "opened-on-chain"
  | "not-owner"
  | "member-not-found"
  | "operator-not-found"
  | "last-owner"
  | "last-operator"
  | "chain-not-indexed";

/** A refusal of an admin request, with a message a person can act on. */
export class AdminRefusal extends Error {
  override readonly name = "AdminRefusal";
  constructor(
    readonly code: AdminRefusalCode,
    message: string,
  ) {
    super(message);
  }
}
