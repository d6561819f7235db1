import { z } from "zod";
import { defineRequestBody } from "../request-body-schema.js";
import { quoteRequestFields, quoteRequestRules } from "./quote-request.js";

/** The client-chosen id of one deliberate signing attempt. */
export const preparationIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,128}$/, "must be 1 to 128 of letters, digits, dot, underscore and hyphen")
  .max(128);

/** A provider id as a preview offer names it. */
export const providerIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,64}$/, "must be a provider id from a preview offer")
  .max(64);

/** The body of POST /quote/prepare: the quote request, then preparationId and provider. */
export const prepareQuoteRequestSchema = z
  .object({
    ...quoteRequestFields,
    preparationId: preparationIdSchema.describe(
      "Chosen by the client, one per deliberate signing attempt. A replay with the same body and preparationId returns the same quote and the same expiry (never extended).",
    ),
    provider: providerIdSchema.describe("The provider id of the chosen preview offer."),
  })
  .meta({
    id: "PrepareQuoteRequest",
    description:
      "A quote request for one chosen provider under a stable preparationId. Validated in the order listed; only the first failing field is reported.",
  });

/** A prepare request as decoded. */
export type PrepareQuoteRequest = z.output<typeof prepareQuoteRequestSchema>;

/** The prepare request body declaration for decodeBody. */
export const prepareQuoteRequestBody = defineRequestBody(
  prepareQuoteRequestSchema,
  quoteRequestRules<PrepareQuoteRequest>(),
);
