import { BaseError } from "viem";

/** An error as one line for a failed order's reason or a log: viem's short message when it is viem's. */
export function errorText(error: unknown): string {
  if (error instanceof BaseError) return error.shortMessage;
  return error instanceof Error ? error.message : String(error);
}
