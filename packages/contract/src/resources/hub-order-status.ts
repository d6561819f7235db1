import { z } from "zod";
import { chainEventSchema, watermarkSchema } from "./chain-event.js";
import { baseUnitsSchema, timestampSchema } from "./wire-scalars.js";

/** The hub's own states of an open-flow order, as the reconciler observes them. */
export const hubOrderStateSchema = z
  .enum(["registered", "source-deposit-seen", "released", "completed", "failed"])
  .meta({
    id: "HubOrderState",
    description:
      "registered: the order is recorded, nothing observed yet. source-deposit-seen: the user's source transaction is observed. released: the payout on the destination chain is observed. completed: the payout is confirmed (terminal). failed: the source transaction reverted or the payout can no longer happen (terminal). States only move forward; stop polling at completed or failed.",
  });

/** A transaction the hub observed for an open-flow order, with the amount it moved when known. */
export const observedTransactionSchema = chainEventSchema
  .extend({ amount: baseUnitsSchema.optional() })
  .meta({ id: "ObservedTransaction" });

/** GET /status/{orderId}: the hub's view of an open-flow registration, from the reconciler's observations. */
export const hubOrderStatusSchema = z
  .object({
    orderId: z.string(),
    quoteId: z.string(),
    state: hubOrderStateSchema,
    sourceTx: observedTransactionSchema.optional().describe("The user's transaction on the source chain."),
    destinationTx: observedTransactionSchema.optional().describe("The payout on the destination chain."),
    failureReason: z.string().optional().describe("On failed only; for display."),
    watermarks: z.array(watermarkSchema).describe("One per chain of the order."),
    createdAt: timestampSchema,
    updatedAt: timestampSchema.describe("When the state last changed."),
  })
  .meta({
    id: "HubOrderStatus",
    description:
      "Not scoped by subject: a backend serving several users must answer it for each user's own orders only. Served from a 2 s cache. The watermarks move only when the reconciler processes a new observation on a chain, so on a quiet chain they can lag far behind.",
  });

/** The hub status view as the wire carries it. */
export type HubOrderStatus = z.output<typeof hubOrderStatusSchema>;
