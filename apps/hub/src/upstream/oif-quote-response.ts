import { z } from "zod";

const previewSide = z.array(z.looseObject({ asset: z.string(), amount: z.string().optional() }));

/**
 * One quote of an OIF upstream, as far as the hub reads it (the client has already named its solver).
 * Unknown fields are kept: the reference aggregator gets the object back verbatim on submission, so the
 * one stored is always the one received. The specification's Quote has no integrity checksum.
 */
export const oifQuoteResponseSchema = z.looseObject({
  quoteId: z.string().min(1),
  solverId: z.string().min(1),
  order: z.looseObject({
    type: z.string(),
    payload: z.looseObject({
      signatureType: z.string().optional(),
      domain: z.record(z.string(), z.unknown()),
      primaryType: z.string(),
      message: z.record(z.string(), z.unknown()),
      types: z.record(z.string(), z.unknown()).optional(),
    }),
    metadata: z.unknown().optional(),
  }),
  validUntil: z.number().int().nonnegative().optional(),
  eta: z.number().int().nonnegative().optional(),
  provider: z.string().optional(),
  partialFill: z.boolean().optional(),
  preview: z.looseObject({ inputs: previewSide, outputs: previewSide }),
  integrityChecksum: z.string().optional(),
});

/** A QuoteResponse as the hub reads it. */
export type OifQuoteResponse = z.output<typeof oifQuoteResponseSchema>;

/** A QuoteResponse on oif-svm-escrow-v0: the same envelope, its payload read by the Solana lane's vetting. */
export const oifSolanaQuoteResponseSchema = oifQuoteResponseSchema.extend({
  order: z.looseObject({ type: z.string(), payload: z.unknown(), metadata: z.unknown().optional() }),
});
