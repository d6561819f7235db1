import { z } from "zod";
import { upstreamStateSchema } from "./upstream-order-status.js";
import { timestampSchema } from "./wire-scalars.js";

/** POST /order/openfor: the acknowledgement of a registered gasless or proxy-lane order. */
export const openForAckSchema = z
  .object({
    orderId: z
      .string()
      .describe(
        "The on-chain order id on the escrow lanes (lowercase 0x hex): read GET /onchain/{orderId}/fill with it.",
      ),
    hubOrderId: z
      .string()
      .describe(
        "SHA-256 hex of `service:v1:order:` + quoteId: the {orderId} of GET /order/{orderId}/status.",
      ),
    quoteId: z.string(),
    state: upstreamStateSchema.describe("The upstream state; `created` at ack."),
    submittedAt: timestampSchema,
  })
  .meta({
    id: "OpenForAck",
    description:
      "Re-posting the identical body returns the same order; it never opens a second one. A lost answer: compute hubOrderId and read GET /order/{hubOrderId}/status.",
  });

/** The openFor ack as the wire carries it. */
export type OpenForAck = z.output<typeof openForAckSchema>;

/** POST /order: the acknowledgement of an open-flow registration (OrderCreateAck). */
export const orderCreateAckSchema = z
  .object({
    orderId: z.string().describe("The order's id; for an order created through openFor, its hubOrderId."),
    quoteId: z.string(),
    createdAt: timestampSchema.describe("First registration time; for an openFor order, its submittedAt."),
  })
  .meta({
    id: "OrderCreateAck",
    description:
      "A repeat for a quote that already has an order returns that order's ack (same orderId and quoteId, first createdAt), even after expiresAt.",
  });

/** OrderCreateAck as the wire carries it. */
export type OrderCreateAck = z.output<typeof orderCreateAckSchema>;
