import { z } from "zod";
import { chainEventSchema, watermarkSchema } from "./chain-event.js";
import { chainFillSchema, chainStatusSchema } from "./chain-view.js";
import {
  accountSchema,
  baseUnitsSchema,
  chainDomainSchema,
  evmAddressSchema,
  hex32Schema,
  hexDataSchema,
  timestampSchema,
} from "./wire-scalars.js";

/** GET /onchain/{orderId}/fill: fill and settle facts of an escrow order id or a bridge depositId. */
export const onchainFillSchema = z
  .object({
    orderId: z.string().describe("The on-chain order id (or bridge depositId) as sent."),
    filled: z
      .boolean()
      .describe(
        "Every output filled in time, or the escrow settled (which proves it); for a bridge transfer, the release observed.",
      ),
    settled: z
      .boolean()
      .describe(
        "The escrow settled, or the bridge released (chain SETTLED): stop polling. A bridge has no step after the release.",
      ),
    status: chainStatusSchema
      .nullable()
      .describe(
        "null while nothing is observed. A bridge transfer is OPEN after the deposit, SETTLED after the release.",
      ),
    fills: z
      .array(chainFillSchema)
      .describe(
        "For a bridge transfer: the release, with its amount and recipient (bytes32, left-padded), solver the bridge contract that paid out (bytes32, left-padded), outputIndex 0 and inTime true once the deposit is observed (a bridge has no deadline).",
      ),
    openTx: chainEventSchema.optional().describe("The escrow Open, or the bridge deposit."),
    settledTx: chainEventSchema.optional().describe("The escrow Finalised, or the bridge release."),
    refundedTx: chainEventSchema.optional(),
    watermarks: z.array(watermarkSchema).describe("How far each chain of the order has been read."),
  })
  .meta({
    id: "OnchainFill",
    description:
      "Not scoped to an organization. Follows escrow orders and open-flow bridge transfers (by depositId). An id nothing is known about (uppercase hex or a missing 0x included) reads like not filled yet: filled false, status null. Stop at settled.",
  });

/** OnchainFill as the wire carries it. */
export type OnchainFill = z.output<typeof onchainFillSchema>;

/** GET /onchain/tx/{chainDomain}/{txHash}/order: the order a transaction opened, filled, settled or refunded, or the bridge transfer it deposited or released. */
export const onchainTxOrderSchema = z
  .object({
    chainDomain: chainDomainSchema,
    txHash: z.string().describe("As sent."),
    orderId: hex32Schema
      .nullable()
      .describe(
        "The on-chain order id, or the bridge depositId for a deposit or release; null when no indexed event of the transaction names one.",
      ),
    event: z
      .enum(["open", "fill", "settle", "refund", "deposit", "release"])
      .nullable()
      .describe(
        "What the transaction did to the order. Escrow orders: open, fill, settle, refund. Open-flow bridge transfers: deposit (the Bridge Deposited on the source chain), release (the Bridge Released on the destination chain); orderId is then the depositId, which GET /onchain/{orderId}/fill follows.",
      ),
    watermark: watermarkSchema.describe(
      "How far this chain has been read: a null orderId for a transaction above it may still resolve later.",
    ),
  })
  .meta({
    id: "OnchainTxOrder",
    description:
      "Resolves a transaction to its order (the way to follow a deposit whose registration was refused). chainDomain is not validated: an unknown or miscased domain is EIN0051.",
  });

/** OnchainTxOrder as the wire carries it. */
export type OnchainTxOrder = z.output<typeof onchainTxOrderSchema>;

/** The refund transaction a user can send: anyone may send it, it pays only the order's own user. */
export const refundStepSchema = z
  .object({
    chainId: z.number().int().positive(),
    to: evmAddressSchema.describe("The escrow input settler."),
    data: hexDataSchema.describe("Calldata of refund(order)."),
    value: baseUnitsSchema.describe("Always `0`."),
  })
  .meta({ id: "RefundStep" });

/**
 * The refund of a Solana escrow order: no program lets the user withdraw, so the escrow's settler
 * authority sends it once the chain's clock passes expiresAt; the user signs nothing.
 */
export const settlerRefundStepSchema = z
  .object({
    chainDomain: chainDomainSchema.describe("The Solana chain holding the deposit."),
    sentBy: z.literal("escrow-settler").describe("Who sends the refund: the escrow's settler authority."),
    settler: accountSchema.describe("The settler authority (base58) that signs the refund."),
    payee: accountSchema.describe(
      "The order's user (base58): the refund pays only them, to their token account.",
    ),
    memo: z
      .string()
      .describe("The refund transaction's memo, `refund:<orderId>`, which the refund view follows."),
  })
  .meta({ id: "SettlerRefundStep" });

/** GET /onchain/{orderId}/refund: whether the order can be refunded and the step that does it. */
export const onchainRefundSchema = z
  .object({
    orderId: z.string(),
    refundable: z.boolean(),
    reason: z
      .enum(["refundable", "unknown-order", "not-expired", "settled", "refunded", "no-refund"])
      .describe(
        "refundable: expired and unsettled, send step (on a Solana escrow order the escrow settler sends it; the user signs nothing). unknown-order: no Open (nor bridge deposit or release) observed for this id. not-expired: wait until expiresAt. settled: the solver was paid; nothing to refund. refunded: already refunded (see refundedTx). no-refund: the id is an open-flow bridge transfer; the bridge has no refund path (an unreleased deposit is a matter for the bridge operator).",
      ),
    expiresAt: timestampSchema.optional().describe("When the escrow allows a refund (the order's expires)."),
    refundedTx: chainEventSchema.optional(),
    step: z
      .union([refundStepSchema, settlerRefundStepSchema])
      .optional()
      .describe(
        "Present when refundable: the transaction to send. On a Solana escrow order it is the escrow settler's refund, named while not expired and once refundable; nothing is sent by the user.",
      ),
  })
  .meta({
    id: "OnchainRefund",
    description: "Not scoped to an organization. A refund pays only the order's own user, whoever sends it.",
  });

/** OnchainRefund as the wire carries it. */
export type OnchainRefund = z.output<typeof onchainRefundSchema>;

const uintString = z.string().regex(/^(0|[1-9][0-9]*)$/);

/** One MandateOutput of the raw tuple, every field a string. */
export const mandateOutputSchema = z
  .object({
    oracle: hex32Schema,
    settler: hex32Schema,
    chainId: uintString,
    token: hex32Schema,
    amount: uintString,
    recipient: hex32Schema,
    callbackData: hexDataSchema,
    context: hexDataSchema,
  })
  .meta({ id: "MandateOutput" });

/** The escrow's StandardOrder tuple, every field a string (uint as decimal, address and bytes as lowercase hex). */
export const standardOrderSchema = z
  .object({
    user: evmAddressSchema,
    nonce: uintString,
    originChainId: uintString,
    expires: uintString.describe("uint32 unix seconds."),
    fillDeadline: uintString.describe("uint32 unix seconds."),
    inputOracle: evmAddressSchema,
    inputs: z
      .array(z.tuple([uintString, uintString]))
      .describe("[uint256(uint160(token)), amount] per input."),
    outputs: z.array(mandateOutputSchema),
  })
  .meta({ id: "StandardOrder" });

/** GET /onchain/{orderId}/order: the raw order tuple the escrow opened. */
export const onchainOrderSchema = z
  .object({
    orderId: hex32Schema,
    chainDomain: chainDomainSchema.describe("The source chain where the Open was observed."),
    settler: evmAddressSchema.describe("The input settler that emitted Open."),
    order: standardOrderSchema,
    openTx: chainEventSchema,
  })
  .meta({
    id: "OnchainOrder",
    description: "The StandardOrder exactly as the Open event carried it; unknown ids are EIN0009.",
  });

/** OnchainOrder as the wire carries it. */
export type OnchainOrder = z.output<typeof onchainOrderSchema>;

/** Query parameters of GET /onchain/{orderId}/refund. */
export const onchainRefundQuerySchema = z.object({
  chainDomain: chainDomainSchema
    .optional()
    .describe("Restricts the lookup to one source chain; by default every indexed chain is searched."),
});
