import type { Cancellation } from "@hub/contract";
import type { Caller } from "../services/caller.js";

/**
 * What an operation receives. `signal` is read from the call's cancellation only when the operation
 * asks for it (the quote and submission routes), so a read makes no AbortSignal.
 */
export class OperationCall {
  constructor(
    readonly requestId: string,
    readonly params: Record<string, string>,
    readonly body: unknown,
    readonly query: Record<string, unknown>,
    private readonly cancellation: Cancellation | undefined,
    readonly caller: Caller | Pick<Caller, "organization"> | undefined,
    readonly resolved: unknown,
  ) {}

  get signal(): AbortSignal | undefined {
    return this.cancellation?.signal;
  }
}
