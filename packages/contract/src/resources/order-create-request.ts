import { z } from "zod";
import { defineRequestBody } from "../request-body-schema.js";
import { opaqueIdSchema } from "./opaque-id.js";
import { hex32Schema } from "./wire-scalars.js";

/** The only signature scheme of the open flow. */
export const OPEN_FLOW_SIGNATURE_SCHEME = "eip191";

/** The body of POST /order, in struct order. */
export const orderCreateRequestSchema = z
  .object({
    quoteId: opaqueIdSchema.describe("The quote reference: the winner's quoteId."),
    artifactHash: hex32Schema.describe("Must equal the quote's disclosure.signableHash (else EIN0010)."),
    signature: z
      .string()
      .max(4096, "must be at most 4096 characters")
      .optional()
      .describe(
        "personal_sign (EIP-191) signature of the winner's signIntent, verbatim, as 0x hex. signature, signer and scheme: all three or none; a partial set is EIN0010.",
      ),
    signer: z
      .string()
      .max(256, "must be at most 256 characters")
      .optional()
      .describe("The signing account; must equal the quote's sourceAccount (else EIN0010)."),
    scheme: z
      .string()
      .max(32, "must be at most 32 characters")
      .optional()
      .describe("`eip191` for the open flow; any other value is EIN0010."),
  })
  .meta({
    id: "OrderCreateRequest",
    description:
      "Registers acceptance of an open-flow winner after the user sent executionTx. The signature fields are checked after the quote (EIN0010), never as form fields, so an idempotent repeat is answered whatever signature fields it carries.",
  });

/** A POST /order request as decoded. */
export type OrderCreateRequest = z.output<typeof orderCreateRequestSchema>;

/** The POST /order body declaration for decodeBody. */
export const orderCreateRequestBody = defineRequestBody(orderCreateRequestSchema);

/** The signature set of a POST /order body: complete, absent (none of the three) or partial (EIN0010). */
export type SignatureSet =
  | { kind: "none" }
  | { kind: "partial" }
  | { kind: "complete"; signature: string; signer: string; scheme: string };

/** Classifies signature, signer and scheme: an empty string counts as absent, as in a Go struct. */
export function signatureSetOf(
  body: Pick<OrderCreateRequest, "signature" | "signer" | "scheme">,
): SignatureSet {
  const { signature, signer, scheme } = body;
  const present = [signature, signer, scheme].filter((value) => value !== undefined && value !== "").length;
  if (present === 0) return { kind: "none" };
  if (present < 3) return { kind: "partial" };
  return {
    kind: "complete",
    signature: signature as string,
    signer: signer as string,
    scheme: scheme as string,
  };
}
