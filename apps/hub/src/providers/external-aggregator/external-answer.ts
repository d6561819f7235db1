import { z } from "zod";
import { QuoteRejection, type QuoteRejectionReason } from "../../quotes/quote-rejection.js";

const SOLVER_ID = /^[A-Za-z0-9._-]{1,31}$/;
const BASE_UNITS = /^(0|[1-9][0-9]{0,77})$/;
const HEX_DATA = /^0x([0-9a-f]{2})*$/;

/** An external aggregator's answer as the hub reads it; anything else is malformed. */
export const externalAnswerSchema = z.looseObject({
  quoteId: z.string().min(1).max(128),
  provider: z.string().regex(SOLVER_ID).optional(),
  kind: z.string().optional(),
  executionClass: z.string().optional(),
  sourceAsset: z.string(),
  destinationAsset: z.string(),
  amountIn: z.string().regex(BASE_UNITS),
  amountOut: z.string().regex(BASE_UNITS),
  recipient: z.string(),
  sourceAccount: z.string().optional(),
  expiresAt: z.string().refine((value) => !Number.isNaN(Date.parse(value)), "not a date"),
  depositRef: z.string().optional(),
  etaSeconds: z.number().int().nonnegative().optional(),
  executionTx: z
    .looseObject({
      approvals: z.array(
        z.looseObject({
          chainId: z.unknown(),
          token: z.string(),
          spender: z.string(),
          amount: z.string().regex(BASE_UNITS),
        }),
      ),
      steps: z.array(
        z.looseObject({
          chainId: z.unknown(),
          to: z.string(),
          data: z.string().regex(HEX_DATA),
          value: z.string().regex(BASE_UNITS),
          description: z.string(),
        }),
      ),
    })
    .optional(),
});

export type ExternalAnswer = z.infer<typeof externalAnswerSchema>;

export function reject(reason: QuoteRejectionReason, detail: string): never {
  throw new QuoteRejection(reason, detail);
}

export function sameAddress(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
