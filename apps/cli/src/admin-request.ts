import { reservationStates } from "@hub/admin/input-rules";
import { z } from "zod";

const id = z.string().min(1).max(200);

/** One admin verb with its arguments: what the CLI parses and what the admin channel carries. */
export const adminRequestSchema = z.discriminatedUnion("verb", [
  z.object({ verb: z.literal("org.create"), name: z.string() }),
  z.object({
    verb: z.literal("org.list"),
    limit: z.number().int().optional(),
    after: id.optional(),
  }),
  z.object({ verb: z.literal("org.show"), orgId: id }),
  z.object({ verb: z.literal("org.disable"), orgId: id }),
  z.object({ verb: z.literal("org.enable"), orgId: id }),
  z.object({ verb: z.literal("project.create"), orgId: id, origins: z.array(z.string()) }),
  z.object({ verb: z.literal("project.origins"), projectId: id, origins: z.array(z.string()) }),
  z.object({ verb: z.literal("project.show"), projectId: id }),
  z.object({
    verb: z.literal("key.create"),
    orgId: id,
    expiresInSeconds: z.number().int().optional(),
    label: z.string().max(1000).optional(),
  }),
  z.object({ verb: z.literal("key.revoke"), keyId: id }),
  z.object({ verb: z.literal("key.disable"), keyId: id }),
  z.object({ verb: z.literal("key.enable"), keyId: id }),
  z.object({ verb: z.literal("key.list"), orgId: id }),
  z.object({ verb: z.literal("member.invite"), orgId: id, email: z.string().max(1000) }),
  z.object({ verb: z.literal("member.list"), orgId: id }),
  z.object({ verb: z.literal("member.remove"), orgId: id, email: z.string().max(1000) }),
  z.object({ verb: z.literal("operator.invite"), email: z.string().max(1000) }),
  z.object({
    verb: z.literal("reservations.list"),
    state: z.enum(reservationStates).optional(),
    orgId: id.optional(),
  }),
  z.object({
    verb: z.literal("reservations.reconcile"),
    hubOrderId: id,
    /** The on-chain id the forward opened, or null: it opened nothing. */
    opened: z.string().max(200).nullable(),
    note: z.string().max(1000).optional(),
  }),
  z.object({ verb: z.literal("usage"), orgId: id, hours: z.number().int().optional() }),
  z.object({
    verb: z.literal("chain.reindex"),
    chainDomain: z.string().max(200),
    fromBlock: z.number().int(),
  }),
  z.object({
    verb: z.literal("audit.list"),
    orgId: id.optional(),
    limit: z.number().int().optional(),
    after: id.optional(),
  }),
]);

export type AdminRequest = z.infer<typeof adminRequestSchema>;
