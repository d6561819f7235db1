export type ExternalAggregatorErrorCode =
  | "VALIDATION_ERROR"
  | "NO_ROUTE"
  | "INSUFFICIENT_LIQUIDITY"
  | "QUOTE_NOT_FOUND";

/** A refusal of the external aggregator, rendered as `{ error, message }` with its HTTP status. */
export class ExternalAggregatorError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ExternalAggregatorErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ExternalAggregatorError";
  }
}
