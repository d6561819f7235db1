import { z } from "zod";
import { defineRequestBody } from "../request-body-schema.js";
import { opaqueIdSchema } from "./opaque-id.js";

/** The body of POST /order/openfor, in struct order. */
export const openForRequestSchema = z
  .object({
    quoteRequestId: opaqueIdSchema.describe("The quote round's id, from the winner."),
    quoteId: opaqueIdSchema.describe("The winner's id. One order per quote."),
    signature: z
      .string()
      .max(4096, "must be at most 4096 characters")
      .optional()
      .describe(
        "Present on the signature lanes, omitted on the proxy lanes. Permit2 lane: `0x00` ‖ 65-byte ECDSA signature of the typed data (66 bytes, 0x hex). EIP-3009 lane: the raw 65-byte signature of the inner payload (a 66-byte prefixed form is also accepted). Solana lane: 97-byte envelope (0x00, 64-byte Ed25519 signature over the base64-decoded transactionMessage, 32-byte public key) as standard base64. The encoding is checked against the quote's lane, after the quote is resolved.",
      ),
  })
  .meta({
    id: "OpenForRequest",
    description:
      "Registers a gasless or proxy-lane order. Re-posting the identical body never opens a second order.",
  });

/** An openFor request as decoded. */
export type OpenForRequest = z.output<typeof openForRequestSchema>;

/** The openFor body declaration for decodeBody. */
export const openForRequestBody = defineRequestBody(openForRequestSchema);
