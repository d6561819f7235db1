import { z } from "zod";

export const orderPayloadSchema = z.strictObject({
  signatureType: z.enum(["eip712", "eip3009"]),
  domain: z.record(z.string(), z.unknown()),
  primaryType: z.string(),
  message: z.record(z.string(), z.unknown()),
  types: z.record(z.string(), z.array(z.strictObject({ name: z.string(), type: z.string() }))).optional(),
});

const bytes32 = z.string().regex(/^0x[0-9a-f]{64}$/, "bytes32 as lowercase 0x hex");
const u64 = z.string().regex(/^[0-9]{1,20}$/, "u64 as a decimal string");

/** The Solana deposit a user signs (docs/decisions/solana-lane.md, `oif-svm-escrow-v0`). */
export const svmEscrowPayloadSchema = z.strictObject({
  signatureType: z.literal("ed25519"),
  transactionMessage: z.string().min(1),
  digest: z.string().min(1),
  sender: z.string().min(1),
  feePayer: z.string().min(1),
  escrowOrder: z.strictObject({
    user: z.string().min(1),
    mint: z.string().min(1),
    amount: u64,
    expires: z.number().int().min(0),
    nonce: u64,
    outputHash: bytes32,
    orderId: bytes32,
  }),
  fillDeadline: z.number().int().min(0),
  output: z.strictObject({
    oracle: bytes32,
    settler: bytes32,
    chainId: z.string().regex(/^[0-9]+$/),
    token: bytes32,
    amount: z.string().regex(/^[0-9]+$/),
    recipient: bytes32,
    callbackData: z.literal("0x"),
    context: z.literal("0x"),
  }),
});

/** The OIF `Order` union, tagged by `type`; only the types the devnet solvers emit are admitted. */
export const oifOrderSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("oif-escrow-v0"), payload: orderPayloadSchema }),
  z.strictObject({ type: z.literal("oif-3009-v0"), payload: orderPayloadSchema, metadata: z.unknown() }),
  z.strictObject({ type: z.literal("oif-svm-escrow-v0"), payload: svmEscrowPayloadSchema }),
]);

const previewInput = z.strictObject({
  user: z.string(),
  asset: z.string(),
  amount: z.string().optional(),
  lock: z.unknown().optional(),
});
const previewOutput = z.strictObject({
  receiver: z.string(),
  asset: z.string(),
  amount: z.string().optional(),
  calldata: z.string().optional(),
});
export const quotePreviewSchema = z.strictObject({
  inputs: z.array(previewInput),
  outputs: z.array(previewOutput),
});

export const failureHandlingSchema = z.enum(["refund-automatic", "refund-claim", "needs-new-signature"]);

/** A solver's quote as the OIF solver API returns it. */
export const solverQuoteSchema = z.object({
  order: oifOrderSchema,
  validUntil: z.number().int().optional(),
  eta: z.number().int().optional(),
  quoteId: z.string().optional(),
  provider: z.string().optional(),
  failureHandling: failureHandlingSchema.optional(),
  partialFill: z.boolean().default(false),
  preview: quotePreviewSchema,
  metadata: z.unknown().optional(),
});
export const solverQuotesResponseSchema = z.object({ quotes: z.array(solverQuoteSchema) });

/** The aggregator's QuoteResponse; echoed verbatim in an order submission, unknown fields denied. */
export const quoteResponseSchema = z.strictObject({
  quoteId: z.string(),
  solverId: z.string(),
  order: oifOrderSchema,
  validUntil: z.number().int().optional(),
  eta: z.number().int().optional(),
  provider: z.string().optional(),
  failureHandling: failureHandlingSchema.optional(),
  partialFill: z.boolean(),
  preview: quotePreviewSchema,
  integrityChecksum: z.string(),
  metadata: z.unknown().optional(),
});

export type OifOrder = z.infer<typeof oifOrderSchema>;
export type OrderPayload = z.infer<typeof orderPayloadSchema>;
export type SvmEscrowPayload = z.infer<typeof svmEscrowPayloadSchema>;
export type QuotePreview = z.infer<typeof quotePreviewSchema>;
export type SolverQuote = z.infer<typeof solverQuoteSchema>;
export type QuoteResponse = z.infer<typeof quoteResponseSchema>;

/** The typed-data payload of an EVM order; throws for a Solana one. */
export function evmOrderPayload(order: OifOrder): OrderPayload {
  if (order.type === "oif-svm-escrow-v0") throw new Error(`${order.type} has no typed-data payload`);
  return order.payload;
}

export interface AggregationMetadata {
  totalDurationMs: number;
  solverTimeoutMs: number;
  globalTimeoutMs: number;
  earlyTermination: boolean;
  totalSolversAvailable: number;
  solversQueried: number;
  solversRespondedSuccess: number;
  solversRespondedError: number;
  solversTimedOut: number;
  minQuotesRequired: number;
  solverSelectionMode: string;
}

export interface QuotesResponse {
  quotes: QuoteResponse[];
  totalQuotes: number;
  metadata: AggregationMetadata;
}
