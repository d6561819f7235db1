import type { ErrorBlock, ErrorCode } from "./types.js";

/**
 * The block of every catalogue code. Typed by the contract's ErrorCode, so a code added to the
 * catalogue fails the SDK's typecheck until it is placed here; a test holds each block equal to the
 * catalogue's. Kept as a value here because the published SDK carries no runtime copy of the contract.
 */
export const errorBlocks: Readonly<Record<ErrorCode, ErrorBlock>> = {
  EPX0001: "terminal",
  EPX0002: "terminal",
  EPX0003: "terminal",
  EPX0004: "terminal",
  EPX0005: "terminal",
  EPX0006: "terminal",
  EPX0007: "terminal",
  EPX0008: "terminal",
  EPX0009: "terminal",
  EPX0010: "terminal",
  EPX0050: "availability",
  EPX0051: "availability",
  EPX0052: "availability",
  EPX0053: "availability",
  EPX0080: "busy",
  EPX0081: "busy",
  EPX0082: "busy",
  EIN0001: "terminal",
  EIN0005: "terminal",
  EIN0006: "terminal",
  EIN0007: "terminal",
  EIN0008: "terminal",
  EIN0009: "terminal",
  EIN0010: "terminal",
  EIN0021: "terminal",
  EIN0049: "terminal",
  EIN0050: "availability",
  EIN0051: "availability",
  EIN0052: "availability",
  EIN0080: "busy",
  EIN0081: "busy",
  EMC0005: "terminal",
  EMC0028: "terminal",
};

/**
 * Codes the SDK raises itself, for what never got a catalogue answer or what the SDK refuses to do.
 * ESDK_TIMEOUT, ESDK_NETWORK and ESDK_NOT_ENVELOPE are availability (the spec: an answer without the
 * envelope did not come from a route; treat it as service unavailable); the others are terminal.
 */
export type SdkErrorCode =
  | "ESDK_TIMEOUT"
  | "ESDK_NETWORK"
  | "ESDK_NOT_ENVELOPE"
  | "ESDK_ABORTED"
  | "ESDK_CANARY"
  | "ESDK_SUBJECT_MISMATCH"
  | "ESDK_NOT_COMPLETABLE"
  | "ESDK_NO_SIGN_INTENT"
  | "ESDK_TX_REVERTED"
  | "ESDK_WALLET"
  | "ESDK_WALLET_REJECTED"
  | "ESDK_WRONG_CHAIN"
  | "ESDK_WALLET_FAMILY"
  | "ESDK_SENDER_MISMATCH"
  | "ESDK_DIGEST_MISMATCH"
  | "ESDK_TRACK_DEADLINE";

const sdkAvailability = new Set<string>(["ESDK_TIMEOUT", "ESDK_NETWORK", "ESDK_NOT_ENVELOPE"]);

/** The block of any code: the catalogue's, the SDK's own, or (an unknown code) availability on a 5xx and terminal otherwise. */
export function blockOf(code: string, status: number): ErrorBlock {
  if (code in errorBlocks) return errorBlocks[code as ErrorCode];
  if (sdkAvailability.has(code)) return "availability";
  if (code.startsWith("ESDK_")) return "terminal";
  return status >= 500 ? "availability" : "terminal";
}

/** A transaction the wallet sent for a submission, so a caller that catches an error knows not to re-quote. */
export interface SentTransaction {
  kind: "approval" | "step";
  chainId: number;
  hash: string;
}

export interface HubErrorFields {
  code: ErrorCode | SdkErrorCode | (string & {});
  status: number;
  message?: string;
  reference?: string;
  params?: readonly string[];
  requestId?: string;
  retryAfterMs?: number;
  sent?: readonly SentTransaction[];
  cause?: unknown;
}

/**
 * The one error every SDK call throws. `block` says what to do: terminal (change the request, no
 * retry), availability (retry later), busy (back off). The SDK has already retried what may be retried
 * by the time a caller sees one. `status` is the HTTP status, 0 when no answer arrived. `sent` lists the
 * transactions a submission had sent: when it is not empty, never re-quote for that order.
 */
export class HubError extends Error {
  readonly code: string;
  readonly block: ErrorBlock;
  readonly status: number;
  readonly reference: string | undefined;
  readonly params: readonly string[];
  readonly requestId: string | undefined;
  /** The wait the answer asked for (error_params[0] ms, or Retry-After), when it named one. */
  readonly retryAfterMs: number | undefined;
  readonly sent: readonly SentTransaction[];

  constructor(fields: HubErrorFields) {
    super(fields.message ?? fields.code, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = "HubError";
    this.code = fields.code;
    this.block = blockOf(fields.code, fields.status);
    this.status = fields.status;
    this.reference = fields.reference;
    this.params = fields.params ?? [];
    this.requestId = fields.requestId;
    this.retryAfterMs = fields.retryAfterMs;
    this.sent = fields.sent ?? [];
  }

  /** The same error (of the same class), carrying the transactions a submission had sent before it. */
  withSent(sent: readonly SentTransaction[]): HubError {
    if (sent.length === 0) return this;
    const Class = this.constructor as new (fields: HubErrorFields) => HubError;
    return new Class({ ...this.fields(), sent });
  }

  private fields(): HubErrorFields {
    return {
      code: this.code,
      status: this.status,
      message: this.message,
      reference: this.reference,
      params: this.params,
      requestId: this.requestId,
      retryAfterMs: this.retryAfterMs,
      cause: this.cause,
    };
  }
}

/**
 * The user refused in the wallet (EIP-1193 code 4001, viem's UserRejectedRequestError, a Wallet Standard
 * wallet's rejection): a HubError with code `ESDK_WALLET_REJECTED` and `kind` "user-rejected", terminal.
 * Nothing was signed for the step refused; `sent` lists what had been sent before it. Offer the user to
 * try again with the same quote while it is valid, or to quote again when `sent` is empty.
 */
export class WalletRejectedError extends HubError {
  readonly kind = "user-rejected" as const;

  constructor(fields: Omit<HubErrorFields, "code" | "status"> & { code?: string; status?: number }) {
    super({ ...fields, code: "ESDK_WALLET_REJECTED", status: 0 });
    this.name = "WalletRejectedError";
  }
}

/**
 * True when the error (or any error in its `cause` chain) is a user's refusal in the wallet: EIP-1193
 * code 4001 (MetaMask, Rabby, Coinbase Wallet, Phantom's EVM and Solana providers), viem's
 * UserRejectedRequestError, or an error named WalletSignMessageError / WalletSignTransactionError with
 * such a cause.
 */
export function isUserRejection(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 8; depth++) {
    const { code, name } = e as { code?: unknown; name?: unknown };
    if (code === 4001 || code === "ACTION_REJECTED" || name === "UserRejectedRequestError") return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
