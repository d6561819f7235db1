/**
 * A JSON-RPC error as a Solana node answers it: the JSON-RPC 2.0 codes, and Agave's server codes
 * (-32002 preflight failure, -32003 signature verification failure, -32015 unsupported version, …).
 */
export class SolanaRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "SolanaRpcError";
  }
}

export const solanaRpcErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  sendTransactionPreflightFailure: -32002,
  transactionSignatureVerificationFailure: -32003,
  transactionSignatureLenMismatch: -32013,
  unsupportedTransactionVersion: -32015,
  minContextSlotNotReached: -32016,
} as const;

export function invalidParams(message: string): SolanaRpcError {
  return new SolanaRpcError(solanaRpcErrorCodes.invalidParams, message);
}
