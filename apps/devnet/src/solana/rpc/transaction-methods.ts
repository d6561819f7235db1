import { z } from "zod";
import { decodeBase58Bytes } from "../chain/base58.js";
import { simulationResult } from "../chain/simulate-transaction.js";
import { invalidParams } from "../solana-rpc-error.js";
import { commitment, context, minContextSlot, parse, type SolanaRpcMethod } from "./solana-rpc-params.js";

function decodeWire(encoded: string, encoding: "base58" | "base64"): Uint8Array {
  try {
    const bytes =
      encoding === "base64" ? new Uint8Array(Buffer.from(encoded, "base64")) : decodeBase58Bytes(encoded);
    if (encoding === "base64" && Buffer.from(bytes).toString("base64") !== encoded)
      throw new Error("not canonical");
    return bytes;
  } catch {
    throw invalidParams(`invalid transaction: failed to decode ${encoding} string`);
  }
}

const transactionSubmission = z.string().max(1644);

/** The methods that take a serialized transaction: send and simulate. */
export const transactionMethods: Record<string, SolanaRpcMethod> = {
  sendTransaction(params, deps) {
    const [encoded, config] = parse(
      z.tuple([
        transactionSubmission,
        z
          .object({
            encoding: z.enum(["base58", "base64"]).optional(),
            skipPreflight: z.boolean().optional(),
            preflightCommitment: commitment,
            maxRetries: z.number().int().nonnegative().optional(),
            minContextSlot,
          })
          .optional(),
      ]),
      params,
    );
    context(deps, config);
    return deps.chain.send(decodeWire(encoded, config?.encoding ?? "base58"), {
      skipPreflight: config?.skipPreflight ?? false,
    });
  },
  simulateTransaction(params, deps) {
    const [encoded, config] = parse(
      z.tuple([
        transactionSubmission,
        z
          .object({
            encoding: z.enum(["base58", "base64"]).optional(),
            sigVerify: z.boolean().optional(),
            replaceRecentBlockhash: z.boolean().optional(),
            commitment,
            minContextSlot,
            innerInstructions: z.boolean().optional(),
            accounts: z.undefined({ error: "accounts is not served by this stand-in" }),
          })
          .optional(),
      ]),
      params,
    );
    const ctx = context(deps, config);
    const simulation = deps.chain.simulate(decodeWire(encoded, config?.encoding ?? "base58"), {
      sigVerify: config?.sigVerify ?? false,
      replaceRecentBlockhash: config?.replaceRecentBlockhash ?? false,
    });
    return { context: ctx, value: simulationResult(simulation) };
  },
};
