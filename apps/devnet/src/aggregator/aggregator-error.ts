/** An answer of the aggregator other than success, in the reference's `{error, message, timestamp}` envelope. */
export class AggregatorError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AggregatorError";
  }

  envelope(nowMs: number): { error: string; message: string; timestamp: number } {
    return { error: this.code, message: this.message, timestamp: Math.floor(nowMs / 1000) };
  }
}
