/**
 * How a call to the hub failed, the same for both transports: `timeout` when the gateway's own signal
 * fired (EPX0052), `unreachable` when no answer came over the connection (EPX0050), `failing` when the
 * hub itself threw instead of answering (EPX0051).
 */
export class HubTransportError extends Error {
  readonly kind: "timeout" | "unreachable" | "failing";

  constructor(kind: "timeout" | "unreachable" | "failing", message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "HubTransportError";
    this.kind = kind;
  }
}
