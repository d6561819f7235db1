import { z } from "zod";
import { defineRequestBody, type FieldRule } from "../request-body-schema.js";
import { isSolanaAddress } from "./solana-address.js";
import { accountSchema, assetKeySchema, positiveBaseUnitsSchema } from "./wire-scalars.js";

/** How the amount is read: exact-input (the default) fixes what the user pays, exact-output what the recipient gets. */
export const swapTypeSchema = z
  .enum(["exact-input", "exact-output"])
  .meta({ id: "SwapType", description: "`exact-input` (default): amount is what the user pays." });

/** The fields of a quote request, in struct order: the order in which they are validated. */
export const quoteRequestFields = {
  sourceAsset: assetKeySchema.describe("CAIP-19 key of the asset the user pays with (from GET /catalog)."),
  destinationAsset: assetKeySchema.describe("CAIP-19 key of the asset the recipient receives."),
  amount: positiveBaseUnitsSchema.describe(
    "Amount in base units as a decimal string greater than 0: what the user pays on exact-input, what the recipient receives on exact-output.",
  ),
  recipient: accountSchema.describe(
    "Who receives on the destination chain. EVM addresses are not format-checked here (a malformed one fails later, not as EIN0001); a Solana recipient that does not decode to a 32-byte base58 key is EIN0001 on this field.",
  ),
  sourceAccount: accountSchema
    .optional()
    .describe(
      "The paying account on the source chain. Optional, but a quote without it cannot compile a non-EVM leg and cannot be followed by a signed POST /order. Same format rule as recipient.",
    ),
  swapType: swapTypeSchema.default("exact-input"),
};

function namespaceOf(assetKey: unknown): string | undefined {
  return typeof assetKey === "string" ? assetKey.slice(0, assetKey.indexOf(":")) : undefined;
}

/** Spec common rule 9: only a non-EVM account is format-checked at quote time; it must decode on its chain. */
function decodesOnChainOf<T>(assetField: keyof T): FieldRule<T> {
  return {
    check: (value, before) =>
      namespaceOf(before[assetField]) !== "solana" || (typeof value === "string" && isSolanaAddress(value)),
    message: "must be a base58 Solana public key (32 bytes) on a Solana chain",
  };
}

/** The quote request object (POST /quote and POST /quote/preview). */
export const quoteRequestSchema = z.object(quoteRequestFields).meta({
  id: "QuoteRequest",
  description:
    "A quote request. Fields are validated in the order listed; only the first failing field is reported (EIN0001, error_reference = its name). Unknown fields are ignored.",
});

/** A quote request as decoded. */
export type QuoteRequest = z.output<typeof quoteRequestSchema>;

/** The rules that need earlier fields: a Solana recipient or sourceAccount must decode. */
export function quoteRequestRules<T extends QuoteRequest>(): {
  recipient: FieldRule<T>[];
  sourceAccount: FieldRule<T>[];
} {
  return {
    recipient: [decodesOnChainOf<T>("destinationAsset")],
    sourceAccount: [decodesOnChainOf<T>("sourceAsset")],
  };
}

/** The quote request body declaration for decodeBody. */
export const quoteRequestBody = defineRequestBody(quoteRequestSchema, quoteRequestRules<QuoteRequest>());
