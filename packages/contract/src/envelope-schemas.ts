import { z } from "zod";
import { errorCodes } from "./error-catalogue.js";

/** Every code of the catalogue, as the OpenAPI `ErrorCode` enum. */
export const errorCodeSchema = z.enum(errorCodes as [string, ...string[]]).meta({
  id: "ErrorCode",
  description:
    "Every code the service answers; docs/errors.md lists each with its status, block and meaning.",
});

/** One entry of a refusal's `errors`. */
export const errorEntrySchema = z
  .object({
    error_code: errorCodeSchema,
    error_reference: z
      .string()
      .min(1)
      .optional()
      .describe("The field, `body`, `Body` or `x-service-subject`; omitted when empty."),
    error_params: z
      .array(z.string())
      .min(1)
      .optional()
      .describe("Omitted when empty. Busy codes EIN0080, EPX0080, EPX0082: [0] is the back-off in ms."),
  })
  .meta({ id: "ErrorEntry" });

/** The envelope of every refusal. */
export const errorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    request_id: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Omitted when empty; missing on the hub's per-IP limiter refusal (the X-Request-Id header still names the call).",
      ),
    message: z
      .string()
      .optional()
      .describe(
        "A short English sentence; present on terminal codes, absent on availability and busy codes.",
      ),
    errors: z
      .array(errorEntrySchema)
      .min(1)
      .describe("A hub error has exactly one entry; framework validation can report several."),
  })
  .meta({ id: "ErrorEnvelope" });

/** The success envelope around a route's data. */
export function successEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({
    success: z.literal(true),
    data,
    request_id: z.string().min(1).optional(),
  });
}
