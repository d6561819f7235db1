export class SolanaEscrowError extends Error {
  constructor(
    readonly reason:
      | "unknown-order"
      | "already-registered"
      | "no-deposit"
      | "already-settled"
      | "not-expired",
    message: string,
  ) {
    super(message);
    this.name = "SolanaEscrowError";
  }
}
