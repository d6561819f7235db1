import { z } from "zod";

const caip19 = z.string().regex(/^eip155:\d+\/(erc20:0x[0-9a-fA-F]{40}|slip44:60)$/, "CAIP-19 EVM asset key");
const evmAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, "0x-prefixed 20-byte address");

/** Body of `POST /external/quote`. */
export const externalQuoteRequestSchema = z.object({
  sourceAsset: caip19,
  destinationAsset: caip19,
  amount: z.string().regex(/^[1-9]\d{0,77}$/, "positive decimal string of base units"),
  recipient: evmAddress,
  sourceAccount: evmAddress.optional(),
});
export type ExternalQuoteRequest = z.infer<typeof externalQuoteRequestSchema>;

/** One approval the wallet sends before the steps; `chainId` is a chain domain on this lane. */
export interface ExternalApproval {
  chainId: string;
  token: `0x${string}`;
  spender: `0x${string}`;
  amount: string;
}

export interface ExternalStep {
  chainId: string;
  to: `0x${string}`;
  data: `0x${string}`;
  value: string;
  description: string;
}

/** What a quote is: a bridge transfer across chains, a same-chain swap of two tokens, or a same-token transfer. */
export type ExternalQuoteKind = "bridge" | "solver-swap" | "transfer";

/** The execution class each kind carries, as the hub discloses it. */
export const externalExecutionClasses = {
  bridge: "BRIDGE",
  "solver-swap": "INFINITY_SOLVER",
  transfer: "TRANSFER",
} as const satisfies Record<ExternalQuoteKind, string>;

export interface ExternalExecutionTx {
  approvals: ExternalApproval[];
  steps: ExternalStep[];
}

interface ExternalQuoteFields {
  quoteId: string;
  provider: string;
  sourceAsset: string;
  destinationAsset: string;
  amountIn: string;
  amountOut: string;
  /** In the destination asset's base units (amountOut + feeAmount is the input at the quote's rate). */
  feeAmount: string;
  feeBps: number;
  recipient: `0x${string}`;
  sourceAccount?: `0x${string}`;
  /** RFC 3339 UTC with milliseconds. */
  expiresAt: string;
}

/** A cross-chain transfer of a declared token through the bridge; the wallet sends executionTx. */
export interface ExternalBridgeQuote extends ExternalQuoteFields {
  kind: "bridge";
  executionClass: "BRIDGE";
  /** The bytes32 the deposit carries; the status route finds the deposit by it. */
  depositRef: `0x${string}`;
  executionTx: ExternalExecutionTx;
}

/** A same-chain swap of two declared tokens: priced, not completable (no transactions disclosed). */
export interface ExternalSolverSwapQuote extends ExternalQuoteFields {
  kind: "solver-swap";
  executionClass: "INFINITY_SOLVER";
  executionTx?: never;
  depositRef?: never;
}

/** A same-token, same-chain transfer: priced, not completable (no transactions disclosed). */
export interface ExternalTransferQuote extends ExternalQuoteFields {
  kind: "transfer";
  executionClass: "TRANSFER";
  executionTx?: never;
  depositRef?: never;
}

/**
 * Answer of `POST /external/quote` and `GET /external/quotes/:quoteId`. Narrow on `kind`; `executionTx`
 * and `depositRef` are present on bridge quotes only.
 */
export type ExternalQuote = ExternalBridgeQuote | ExternalSolverSwapQuote | ExternalTransferQuote;

/** `not-completable`: a solver-swap or transfer quote, which discloses nothing to send and never moves. */
export type ExternalTransferState =
  | "awaiting-deposit"
  | "deposited"
  | "released"
  | "unroutable"
  | "not-completable";

/** Answer of `GET /external/quotes/:quoteId/status`. */
export interface ExternalTransferStatus {
  quoteId: string;
  state: ExternalTransferState;
  depositId?: `0x${string}`;
  depositTxHash?: `0x${string}`;
  releaseTxHash?: `0x${string}`;
  releasedAmount?: string;
}
