import { z } from "zod";
import { chainEventSchema } from "./chain-event.js";
import { accountSchema, baseUnitsSchema, hex32Schema, timestampSchema } from "./wire-scalars.js";

/** chain.status of a list entry and the fill view. */
export const chainStatusSchema = z
  .enum(["AWAITING_OPEN", "OPEN", "FILLED", "SETTLED", "EXPIRED", "REFUNDED"])
  .meta({
    id: "ChainStatus",
    description:
      "Observed on chain. OPEN: escrow Open seen. AWAITING_OPEN: a fill seen before the Open. FILLED: destination fill seen. SETTLED: settle seen (gated by attestation), terminal. EXPIRED: no fill can complete the order any more; render it as a failure, but it is not terminal: keep reading. REFUNDED: refund seen, terminal. Stop polling at SETTLED or REFUNDED.",
  });

/** One observed destination fill. */
export const chainFillSchema = chainEventSchema
  .extend({
    amount: baseUnitsSchema.describe("Amount delivered, base units of the output token."),
    recipient: hex32Schema.describe("The output's recipient as on chain (bytes32)."),
    solver: hex32Schema.describe("The filling solver's identifier (bytes32)."),
    at: timestampSchema.describe("The fill event's own timestamp."),
    outputIndex: z
      .number()
      .int()
      .nonnegative()
      .nullable()
      .describe(
        "The order output this fill delivers; null when it matches none or the order is not yet seen.",
      ),
    inTime: z
      .boolean()
      .describe("True when the fill matches an output and lies at or before the fillDeadline."),
  })
  .meta({ id: "ChainFill" });

/** Observed chain facts of an order (the list entry's `chain`). */
export const chainViewSchema = z
  .object({
    status: chainStatusSchema,
    openTx: chainEventSchema.optional().describe("The escrow Open on the source chain."),
    fills: z.array(chainFillSchema),
    settledTx: chainEventSchema.optional().describe("The escrow Finalised (settle) on the source chain."),
    refundedTx: chainEventSchema.optional().describe("The escrow Refunded on the source chain."),
    fillDeadline: timestampSchema.optional(),
    expires: timestampSchema.optional().describe("After it the order can be refunded if unsettled."),
    sponsor: accountSchema.optional().describe("The order's user on the source chain."),
  })
  .meta({
    id: "ChainView",
    description:
      "Facts the reconciler recorded from the chains; absent until the escrow Open (or a fill) is observed.",
  });

/** chain facts as the wire carries them. */
export type ChainView = z.output<typeof chainViewSchema>;
