import { z } from "zod";
import { accountSchema } from "./wire-scalars.js";

/** EIP-712 typed data as eth_signTypedData_v4 takes it (Permit2 PermitBatchWitnessTransferFrom on the escrow lane). */
export const typedDataSchema = z
  .object({
    domain: z.record(z.string(), z.unknown()),
    types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
    primaryType: z.string(),
    message: z.record(z.string(), z.unknown()),
  })
  .meta({
    id: "TypedData",
    description:
      "EIP-712 typed data for eth_signTypedData_v4. On oif-escrow-gasless: Permit2 `PermitBatchWitnessTransferFrom` with the `Permit2Witness` witness; sign it and send `0x00` ‖ signature.",
  });

/** The EIP-3009 lane's payload, wrapped with its chain: sign the inner typed data. */
export const eip3009PayloadSchema = z
  .object({
    chainId: z.number().int().positive(),
    payload: typedDataSchema,
  })
  .meta({
    id: "Eip3009SignPayload",
    description:
      "aggregator-gasless: `ReceiveWithAuthorization` typed data wrapped as `{chainId, payload}`; sign the inner payload and send the raw 65-byte signature.",
  });

/** The Solana lane's message: the user signs the base64-decoded transactionMessage; the solver pays fees. */
export const solanaSignPayloadSchema = z
  .object({
    transactionMessage: z.string().describe("Standard base64 of the transaction message to sign."),
    digest: z.string().describe("A checksum of the message; it is not signed."),
    sender: accountSchema.describe("The user."),
    feePayer: accountSchema.describe("The solver."),
  })
  .meta({
    id: "SolanaSignPayload",
    description:
      "oif-escrow-nonevm: sign the base64-decoded transactionMessage with Ed25519 and send the 97-byte envelope (0x00, signature, public key) as standard base64.",
  });

/** What the user signs on a signature lane; its shape follows disclosure.signablePayload.kind. */
export const signPayloadSchema = z
  .union([typedDataSchema, eip3009PayloadSchema, solanaSignPayloadSchema])
  .meta({ id: "SignPayload", description: "Present on signature lanes only; shape by lane." });

/** signPayload as the wire carries it. */
export type SignPayload = z.output<typeof signPayloadSchema>;
