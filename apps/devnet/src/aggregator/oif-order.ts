import { z } from "zod";
import { quoteResponseSchema } from "./oif-quote.js";

/** OIF `TransactionType`: the stage a failed order stopped at. */
export type TransactionType = "Prepare" | "Fill" | "PostFill" | "PreClaim" | "Claim";

/** The aggregator's status enum, serde-lowercase and externally tagged for the failed arm. */
export type OrderStatus =
  | "created"
  | "pending"
  | "executing"
  | "executed"
  | "settling"
  | "settled"
  | "finalized"
  | "refunded"
  | { failed: [TransactionType, string] };

/** The forward order of the non-terminal states; failed and refunded sit outside it. */
export const statusOrder = [
  "created",
  "pending",
  "executing",
  "executed",
  "settling",
  "settled",
  "finalized",
] as const;

/** finalized, or failed in either dialect (the reference's arm, the specification's plain `failed`). */
export function isFinalStatus(status: unknown): boolean {
  return (
    status === "finalized" ||
    status === "failed" ||
    (typeof status === "object" && status !== null && "failed" in status)
  );
}

export interface AssetAmount {
  asset: string;
  amount?: string;
}

export interface FillTransaction {
  hash: string;
  status: "pending" | "executed" | "failed";
  timestamp: number;
}

/** What the solver's GET /orders/{id} answers (flattened, unix seconds). */
export interface SolverOrderResponse {
  id: string;
  /** Usually an OrderStatus; a faulty solver may send anything. */
  status: unknown;
  createdAt: number;
  updatedAt: number;
  quoteId: string | null;
  inputAmounts: AssetAmount[];
  outputAmounts: AssetAmount[];
  settlement: { type: "escrow"; data: Record<string, unknown> };
  fillTransaction: FillTransaction | null;
}

/** What the solver's POST /orders answers on success. */
export interface SolverPostOrderResponse {
  orderId: string;
  status: "received";
  message: string;
  order?: unknown;
}

/** The aggregator's OrderResponse (RFC 3339 timestamps, orderId as 64 hex without 0x). */
export interface OrderResponse {
  orderId: string;
  status: unknown;
  quoteId: string | null;
  createdAt: string;
  updatedAt: string;
  inputAmounts: AssetAmount[];
  outputAmounts: AssetAmount[];
  orderType: string;
  settlement: { type: "escrow" | "resourceLock"; data: Record<string, unknown> };
  fillTransaction: FillTransaction | null;
}

/** An order's signature: 0x hex on the EVM lanes, standard base64 (the 97-byte envelope) on the Solana lane. */
export const orderSignaturePattern = /^(?:(?:0x)?[0-9a-fA-F]*|[A-Za-z0-9+/]+={0,2})$/;

/** POST /api/v1/orders body; a missing or empty signature registers an order the user opens on chain. */
export const postOrderRequestSchema = z.strictObject({
  quoteResponse: quoteResponseSchema,
  signature: z
    .string()
    .regex(orderSignaturePattern, "hex, or standard base64 (a Solana envelope)")
    .optional(),
  originSubmission: z
    .strictObject({ mode: z.enum(["user", "protocol"]), schemes: z.array(z.string()).optional() })
    .optional(),
  metadata: z.unknown().optional(),
});
export type PostOrderRequest = z.infer<typeof postOrderRequestSchema>;

/** What the aggregator forwards to the solver's POST /orders. */
export interface SolverPostOrderRequest {
  order: unknown;
  signature?: string;
  quoteId: string;
  originSubmission?: unknown;
  metadata?: unknown;
}
