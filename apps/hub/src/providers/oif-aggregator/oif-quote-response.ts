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

type Judged = ReturnType<typeof oifQuoteResponseSchema.safeParse>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !Object.hasOwn(value, "__proto__");
const isRecord = (value: unknown): value is Record<string, unknown> =>
  isObject(value) &&
  Object.getPrototypeOf(value) === Object.prototype &&
  Object.getOwnPropertySymbols(value).length === 0;
const isText = (value: unknown, min = 0) => typeof value === "string" && value.length >= min;
const isOptional = (value: unknown, holds: (value: unknown) => boolean) =>
  value === undefined || holds(value);
const isCount = (value: unknown) => Number.isSafeInteger(value) && (value as number) >= 0;
function isPreviewSide(value: unknown): boolean {
  // zod's copy holds the items alone: an array with another key (never one of JSON's) is left to it.
  if (!Array.isArray(value) || Object.keys(value).length !== value.length) return false;
  // By index, as zod reads it: a hole is an undefined item.
  for (let i = 0; i < value.length; i += 1) {
    const item: unknown = value[i];
    if (!isObject(item) || !isText(item.asset) || !isOptional(item.amount, isText)) return false;
  }
  return true;
}

/**
 * True only where oifQuoteResponseSchema takes `raw` and gives back a copy equal to it, as an
 * upstream's JSON spells a quote (plain objects, no `__proto__` key, which zod would drop): then
 * `raw` is read as it is, without zod's copy. Anything else is left to zod, so the verdicts and
 * messages are zod's.
 */
function holdsQuoteShape(raw: unknown): raw is OifQuoteResponse {
  if (!isObject(raw) || !isText(raw.quoteId, 1) || !isText(raw.solverId, 1)) return false;
  const { order, preview } = raw;
  if (!isObject(order) || !isText(order.type) || !isObject(order.payload)) return false;
  const { payload } = order;
  return (
    isOptional(payload.signatureType, isText) &&
    isRecord(payload.domain) &&
    isText(payload.primaryType) &&
    isRecord(payload.message) &&
    isOptional(payload.types, isRecord) &&
    isOptional(raw.validUntil, isCount) &&
    isOptional(raw.eta, isCount) &&
    isOptional(raw.provider, isText) &&
    isOptional(raw.partialFill, (value) => typeof value === "boolean") &&
    isObject(preview) &&
    isPreviewSide(preview.inputs) &&
    isPreviewSide(preview.outputs) &&
    isOptional(raw.integrityChecksum, isText)
  );
}

/** oifQuoteResponseSchema's verdict on one upstream quote; a plain JSON quote skips zod's copy. */
export function parseOifQuoteResponse(raw: unknown): Judged {
  return holdsQuoteShape(raw) ? { success: true, data: raw } : oifQuoteResponseSchema.safeParse(raw);
}
