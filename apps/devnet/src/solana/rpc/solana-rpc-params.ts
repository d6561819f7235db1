import { type Address, address } from "@solana/kit";
import { z } from "zod";
import { decodeBase58Bytes } from "../chain/base58.js";
import type { SolanaChain } from "../solana-chain.js";
import { invalidParams, SolanaRpcError, solanaRpcErrorCodes } from "../solana-rpc-error.js";

/** What the RPC server needs beside the chain: the faucet behind requestAirdrop. */
export interface SolanaRpcDeps {
  chain: SolanaChain;
  airdrop(recipient: Address, lamports: bigint): string;
}

export type SolanaRpcMethod = (params: unknown[], deps: SolanaRpcDeps) => unknown;

/** The version this stand-in reports (getVersion): litesvm 1.5.0 runs Agave 3.0's runtime. */
export const solanaStandInVersion = { "solana-core": "3.0.0", "feature-set": 0 } as const;

export const commitment = z.enum(["processed", "confirmed", "finalized"]).optional();
export const minContextSlot = z.number().int().nonnegative().optional();
export const contextConfig = z.object({ commitment, minContextSlot }).optional();

export function parse<T>(schema: z.ZodType<T>, params: unknown[]): T {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  if (issue === undefined) throw invalidParams("Invalid params");
  throw invalidParams(
    `Invalid params: ${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`,
  );
}

export function bytesOfLength(text: string, length: number): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = decodeBase58Bytes(text);
  } catch {
    throw invalidParams("Invalid param: Invalid");
  }
  if (bytes.length !== length)
    throw invalidParams(length === 32 ? "Invalid param: WrongSize" : "Invalid param: Invalid");
  return bytes;
}

export const pubkey = z
  .string()
  .max(44)
  .transform((text) => {
    bytesOfLength(text, 32);
    return address(text);
  });
export const signatureText = z
  .string()
  .max(88)
  .transform((text) => {
    bytesOfLength(text, 64);
    return text;
  });

export function context(deps: SolanaRpcDeps, config?: { minContextSlot?: number | undefined }) {
  const slot = deps.chain.slot();
  if (config?.minContextSlot !== undefined && config.minContextSlot > slot)
    throw new SolanaRpcError(
      solanaRpcErrorCodes.minContextSlotNotReached,
      "Minimum context slot has not been reached",
      { contextSlot: slot },
    );
  return { apiVersion: solanaStandInVersion["solana-core"], slot };
}
