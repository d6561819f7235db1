/** Why a call failed: the label of `hub_chain_rpc_errors_total`. */
export type RpcErrorKind =
  | "rate-limited"
  | "server"
  | "timeout"
  | "transport"
  | "malformed"
  | "range"
  | "rpc"
  | "http";

export class EvmRpcError extends Error {
  readonly kind: RpcErrorKind;
  /** The JSON-RPC error code, when the node answered one. */
  readonly code: number | undefined;
  /** The host that answered (never the full URL: it may carry a key). */
  readonly host: string;
  readonly retryAfterMs: number | undefined;
  readonly data: unknown;

  constructor(
    message: string,
    fields: { kind: RpcErrorKind; host: string; code?: number; retryAfterMs?: number; data?: unknown },
  ) {
    super(message);
    this.name = "EvmRpcError";
    this.kind = fields.kind;
    this.host = fields.host;
    this.code = fields.code;
    this.retryAfterMs = fields.retryAfterMs;
    this.data = fields.data;
  }

  /** Whether another attempt (at this URL later, or at another URL) may answer. */
  get retryable(): boolean {
    return (
      this.kind === "rate-limited" ||
      this.kind === "server" ||
      this.kind === "timeout" ||
      this.kind === "transport" ||
      this.kind === "malformed"
    );
  }
}
