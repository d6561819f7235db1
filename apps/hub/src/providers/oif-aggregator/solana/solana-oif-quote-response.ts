import { z } from "zod";
import { oifQuoteResponseSchema } from "../oif-quote-response.js";

/** A QuoteResponse on oif-svm-escrow-v0: the same envelope, its payload read by the Solana lane's vetting. */
export const oifSolanaQuoteResponseSchema = oifQuoteResponseSchema.extend({
  order: z.looseObject({ type: z.string(), payload: z.unknown(), metadata: z.unknown().optional() }),
});
