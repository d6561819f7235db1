import { z } from "zod";
import {
  blockNumberSchema,
  chainDomainSchema,
  hex32Schema,
  solanaSignatureSchema,
  timestampSchema,
} from "./wire-scalars.js";

/** Where a fact was observed on chain: the transaction, its block and the block's time. */
export const chainEventSchema = z
  .object({
    chainDomain: chainDomainSchema,
    txHash: z
      .union([hex32Schema, solanaSignatureSchema])
      .describe("The transaction hash; on a Solana chain the transaction signature (base58)."),
    blockNumber: blockNumberSchema.describe("The block number; on a Solana chain the slot."),
    blockHash: hex32Schema.optional().describe("Absent on a Solana chain."),
    logIndex: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe("The log's index; on a Solana chain the index of the memo instruction naming the order."),
    at: timestampSchema.describe("Timestamp of the block holding the event."),
    final: z
      .boolean()
      .optional()
      .describe(
        "Whether the block holding the event is final by its chain's finality rule (the RPC's finalized or safe tag, a confirmation depth, or a Solana commitment; docs/order-states.md). An event that is not final may still be reorganised away, and no terminal state (SETTLED, REFUNDED, settled: true) and no EXPIRED or refundable comes from it.",
      ),
  })
  .meta({ id: "ChainEvent" });

/** An observed on-chain event. */
export type ChainEvent = z.output<typeof chainEventSchema>;

/** How far the reconciler has read one chain; it moves only when a new observation is processed. */
export const watermarkSchema = z
  .object({
    chainDomain: chainDomainSchema,
    blockNumber: blockNumberSchema.describe("Newest block processed on this chain."),
    observedAt: timestampSchema.describe("When that block was processed."),
  })
  .meta({
    id: "Watermark",
    description:
      "How far the reconciler has read a chain. It moves only when the reconciler processes a new observation on that chain, so on a quiet chain it can lag far behind the chain's head.",
  });

/** A chain's watermark. */
export type Watermark = z.output<typeof watermarkSchema>;
