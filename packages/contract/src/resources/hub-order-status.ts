import { z } from "zod";
import { chainEventSchema, watermarkSchema } from "./chain-event.js";
import { baseUnitsSchema, hex32Schema, timestampSchema } from "./wire-scalars.js";

/** The hub's own states of an open-flow registration, as the reconciler observes them. */
export const hubOrderStateSchema = z
  .enum(["registered", "deposited", "released", "mismatched", "recorded"])
  .meta({
    id: "HubOrderState",
    description: [
      "registered: the open-flow order is recorded; its bridge deposit is not observed yet.",
      "deposited: the bridge deposit the quote named (its ref, bridge, token, amount, destination chain and recipient, from the quote's sourceAccount when it named one, made no earlier than 60 s before the quote was issued) is observed on the source chain; each deposit counts for one order only.",
      "released: the bridge's release of that deposit (by its deposit id) is observed on the destination chain and paid the quote's recipient at least the quoted output amount of the quoted destination token (final once the release's block is final; until then `final` is false).",
      "mismatched: the release of that deposit is observed but paid another recipient, another token or less than the quoted output amount; `releaseMismatch` says which (final once the release's block is final: the bridge releases a deposit once).",
      "recorded: a solver-swap registration; it moves no funds, nothing is followed (final).",
      "States only move forward; stop polling when `final` is true. There is no failed state: the bridge has no refund or expiry, so the hub cannot observe that a deposit will never be released; a deposit that stays `deposited` is a matter for the bridge operator.",
    ].join(" "),
  });

/** One hub order state. */
export type HubOrderState = z.output<typeof hubOrderStateSchema>;

/** A transaction the hub observed for an open-flow order, with the amount it moved. */
export const observedTransactionSchema = chainEventSchema
  .extend({ amount: baseUnitsSchema.optional().describe("Base units the logged event moved.") })
  .meta({ id: "ObservedTransaction" });

/** How an observed release differs from what the quote disclosed (state mismatched). */
export const releaseMismatchSchema = z
  .object({
    fields: z
      .array(z.enum(["recipient", "token", "amount"]))
      .min(1)
      .describe(
        "The release's terms that differ: recipient (not the quote's recipient), token (not the destination asset's token), amount (below the quoted output amount).",
      ),
    reason: z.string().describe("One sentence naming what was paid and what the quote disclosed."),
  })
  .meta({ id: "ReleaseMismatch" });

/** How an observed release differs from the quote. */
export type ReleaseMismatch = z.output<typeof releaseMismatchSchema>;

/** GET /status/{orderId}: the hub's view of an open-flow registration, from the reconciler's observations. */
export const hubOrderStatusSchema = z
  .object({
    orderId: z.string().describe("The registration's orderId (POST /order's ack)."),
    quoteId: z.string(),
    lane: z.enum(["open-flow", "solver-swap"]).describe("The registered winner's lane."),
    state: hubOrderStateSchema,
    final: z
      .boolean()
      .describe(
        "True on recorded, and on released and mismatched once the release's block is final on the destination chain: the view will not change state again.",
      ),
    depositId: hex32Schema
      .optional()
      .describe("The bridge's id of the observed deposit (from deposited on); the release carries it."),
    sourceTx: observedTransactionSchema
      .optional()
      .describe("The user's bridge deposit on the source chain, with its amount (from deposited on)."),
    destinationTx: observedTransactionSchema
      .optional()
      .describe(
        "The bridge's release on the destination chain, with the amount paid out (released, mismatched).",
      ),
    releaseMismatch: releaseMismatchSchema
      .optional()
      .describe("On mismatched only: how the observed release differs from the quote."),
    watermarks: z
      .array(watermarkSchema)
      .describe(
        "One per chain of the order (source, then destination) that the reconciler has recorded an observation on: how far that chain was indexed when it last recorded one. Absent for a chain with none yet; empty on a solver-swap registration.",
      ),
    createdAt: timestampSchema.describe("The registration's createdAt (POST /order's ack)."),
    updatedAt: timestampSchema.describe(
      "When the state last changed: createdAt, then when the reconciler recorded the deposit, then the release (released or mismatched).",
    ),
  })
  .meta({
    id: "HubOrderStatus",
    description:
      "Scoped by organization, not by subject: a backend serving several users must answer it for each user's own orders only. Served from a 2 s cache. The watermarks move only when the reconciler processes a new observation on a chain, so on a quiet chain they can lag far behind.",
  });

/** The hub status view as the wire carries it. */
export type HubOrderStatus = z.output<typeof hubOrderStatusSchema>;
