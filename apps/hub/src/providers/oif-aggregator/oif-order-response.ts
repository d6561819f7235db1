import { z } from "zod";

/**
 * The aggregator's OrderResponse. `status` is a string or `{"failed": [stage, message]}` as the upstream
 * sent it, and `fillTransaction` its unverified fill reference: both are judged by the status rules, not here.
 */
export const oifOrderResponseSchema = z.looseObject({
  orderId: z.string().min(1),
  status: z.unknown().refine((value) => value !== undefined, "status is required"),
  quoteId: z.string().nullish(),
  createdAt: z.unknown().optional(),
  updatedAt: z.unknown().optional(),
  orderType: z.string().optional(),
  fillTransaction: z.unknown().optional(),
});

/** An order as the upstream reports it. */
export type OifOrderResponse = z.output<typeof oifOrderResponseSchema>;
