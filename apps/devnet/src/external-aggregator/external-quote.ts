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

/** Answer of `POST /external/quote` and `GET /external/quotes/:quoteId`. */
export interface ExternalQuote {
  quoteId: string;
  provider: string;
  sourceAsset: string;
  destinationAsset: string;
  amountIn: string;
  amountOut: string;
  feeAmount: string;
  feeBps: number;
  recipient: `0x${string}`;
  sourceAccount?: `0x${string}`;
  /** RFC 3339 UTC with milliseconds. */
  expiresAt: string;
  /** The bytes32 the deposit carries; the status route finds the deposit by it. */
  depositRef: `0x${string}`;
  executionTx: { approvals: ExternalApproval[]; steps: ExternalStep[] };
}

export type ExternalTransferState = "awaiting-deposit" | "deposited" | "released" | "unroutable";

/** Answer of `GET /external/quotes/:quoteId/status`. */
export interface ExternalTransferStatus {
  quoteId: string;
  state: ExternalTransferState;
  depositId?: `0x${string}`;
  depositTxHash?: `0x${string}`;
  releaseTxHash?: `0x${string}`;
  releasedAmount?: string;
}
