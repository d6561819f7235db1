import { z } from "zod";
import { chainViewSchema } from "./chain-view.js";
import { laneSchema } from "./lane.js";
import { swapInputSchema } from "./quote-winner.js";
import { upstreamStateSchema } from "./upstream-order-status.js";
import {
  assetKeySchema,
  baseUnitsSchema,
  chainDomainSchema,
  hex32Schema,
  timestampSchema,
} from "./wire-scalars.js";

/** One input of a listed order: what the user put in. Never carries recipient, fillTxHash or paidAmount. */
export const orderInputSchema = z
  .strictObject({
    chainDomain: chainDomainSchema,
    asset: assetKeySchema,
    amount: baseUnitsSchema,
  })
  .meta({ id: "OrderInput" });

/** One openFor submission of GET /orders, joined with its recorded chain facts. */
export const orderListEntrySchema = z
  .object({
    orderId: z.string().describe("The hubOrderId: the key of the record."),
    quoteId: z.string(),
    lane: laneSchema,
    onchainOrderId: hex32Schema,
    onchainOrderIdSource: z
      .enum(["upstream", "verified"])
      .describe(
        "`upstream` on the Permit2 lane (the aggregator's answer, not recomputed); `verified` where the hub recomputes it.",
      ),
    submittedAt: timestampSchema.describe("The ordering key."),
    state: upstreamStateSchema.describe("The last upstream state the hub read (advisory)."),
    swapInput: swapInputSchema.optional().describe("Absent when the order is not token-in."),
    refundDeadline: timestampSchema.optional().describe("Absent unless the deadline was extended."),
    inputs: z.array(orderInputSchema),
    chain: chainViewSchema.optional().describe("Absent until the escrow Open is observed."),
  })
  .meta({ id: "OrderListEntry" });

/** A list entry as the wire carries it. */
export type OrderListEntry = z.output<typeof orderListEntrySchema>;

/** GET /orders: one page of the subject's openFor submissions. */
export const ordersListSchema = z
  .object({
    subject: z.string().describe("Echo of the X-Service-Subject sent; refuse a page whose subject differs."),
    orders: z.array(orderListEntrySchema).describe("Ordered by submittedAt ascending."),
    nextCursor: z
      .string()
      .nullable()
      .describe("Pass as `cursor` for the next page; null on the last page. Deduplicate by orderId."),
  })
  .meta({
    id: "OrdersList",
    description:
      "The organization's openFor submissions under the subject sent (open-flow registrations are not listed). Scoping check: list with a fresh `canary-` subject; the answer must hold no orders and echo that subject, otherwise serve no history.",
  });

/** OrdersList as the wire carries it. */
export type OrdersList = z.output<typeof ordersListSchema>;
