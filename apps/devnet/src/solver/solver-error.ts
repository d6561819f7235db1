/** A refusal of the solver API, rendered as the OIF solver's `{error, message}` envelope. */
export class SolverError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "SolverError";
  }
}
