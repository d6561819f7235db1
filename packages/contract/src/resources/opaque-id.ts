import { z } from "zod";

/** An opaque id the hub issued (quoteRequestId, quoteId); not format-checked beyond length, an unknown one is a lookup miss. */
export const opaqueIdSchema = z.string().min(1, "is required").max(256, "must be at most 256 characters");
