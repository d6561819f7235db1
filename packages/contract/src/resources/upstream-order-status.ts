import { z } from "zod";
import { hex32Schema, timestampSchema } from "./wire-scalars.js";

/** The upstream view's states: created < pending < executing < executed < settling < settled < finalized; failed and refunded outside. */
export const upstreamStateSchema = z
  .enum([
    "created",
    "pending",
    "executing",
    "executed",
    "settling",
    "settled",
    "finalized",
    "failed",
    "refunded",
  ])
  .meta({
    id: "UpstreamState",
    description:
      "created < pending < executing < executed < settling < settled < finalized; states only move forward and may be skipped. failed and refunded are reachable from any non-terminal state. Terminal: finalized, failed, refunded (settled is not terminal).",
  });

/** The stage an upstream failure names; display as an enum, no meaning attached. */
export const upstreamFailedAtSchema = z
  .enum(["Prepare", "Fill", "PostFill", "PreClaim", "Claim"])
  .meta({ id: "UpstreamFailedAt", description: "Display as an enum; no meaning attached." });

/** One state the hub read on the way. */
export const upstreamHistoryEntrySchema = z
  .object({ state: upstreamStateSchema, at: timestampSchema.describe("Time of the read.") })
  .meta({ id: "UpstreamHistoryEntry" });

/** GET /order/{orderId}/status: the upstream's advisory view of an openFor order. */
export const upstreamOrderStatusSchema = z
  .object({
    orderId: z.string().describe("The hubOrderId."),
    quoteId: z.string(),
    onchainOrderId: hex32Schema.optional().describe("The on-chain id, when known."),
    state: upstreamStateSchema,
    stateSource: z.literal("upstream-advisory"),
    finalityVerified: z.literal(false),
    upstreamFillReported: z
      .boolean()
      .describe("Only that the upstream supplied a fill reference; not chain proof."),
    fillTransaction: z
      .string()
      .optional()
      .describe("The upstream's fill reference, unverified, verbatim; may be absent."),
    failedAt: upstreamFailedAtSchema.optional().describe("On the failure arm only."),
    failureReason: z.string().optional().describe("The upstream's own text: display, never parse."),
    history: z
      .array(upstreamHistoryEntrySchema)
      .describe("States the hub read on the way; a state passed between two reads is absent."),
    rejectedUpstreamTransition: z
      .boolean()
      .describe(
        "True when the latest upstream report was backwards, unknown or contradicted the accepted state and was not applied.",
      ),
    upstreamStale: z
      .boolean()
      .describe("True when the last refresh failed and the last good state is served."),
    updatedAt: timestampSchema.describe("When the served state was last read from the upstream."),
  })
  .meta({
    id: "UpstreamOrderStatus",
    description:
      "Advisory only: neither finalized, settled nor filled proves settlement; show money facts from the on-chain views. Served from a 2 s cache; poll every 2-3 s and stop at finalized, failed or refunded. An EVM gasless order can stay `executed` for good (fresh syncs, upstreamStale false, no fillTransaction) although it filled and settled: once `executed`, read GET /onchain/{orderId}/fill by onchainOrderId and hand off to it after a few minutes without progress.",
  });

/** UpstreamOrderStatus as the wire carries it. */
export type UpstreamOrderStatus = z.output<typeof upstreamOrderStatusSchema>;
