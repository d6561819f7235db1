import { getBase58Decoder } from "@solana/kit";
import { z } from "zod";
import { parseTokenAccountData } from "../parse-token-account-data.js";
import { invalidParams, SolanaRpcError, solanaRpcErrorCodes } from "../solana-rpc-error.js";
import {
  commitment,
  context,
  contextConfig,
  minContextSlot,
  parse,
  pubkey,
  type SolanaRpcMethod,
} from "./solana-rpc-params.js";

const base58 = getBase58Decoder();
const rentEpochOfExemptAccounts = 18446744073709551615n;

function encodeAccountData(data: Uint8Array, encoding: "base58" | "base64"): [string, string] {
  if (encoding === "base58") {
    if (data.length > 128)
      throw new SolanaRpcError(
        solanaRpcErrorCodes.invalidRequest,
        "Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.",
      );
    return [base58.decode(data), "base58"];
  }
  return [Buffer.from(data).toString("base64"), "base64"];
}

/** The methods that read accounts, and the faucet. */
export const accountMethods: Record<string, SolanaRpcMethod> = {
  getBalance(params, deps) {
    const [account, config] = parse(z.tuple([pubkey, contextConfig]), params);
    const found = deps.chain.account(account);
    return { context: context(deps, config), value: found.exists ? found.lamports : 0n };
  },
  getAccountInfo(params, deps) {
    const [account, config] = parse(
      z.tuple([
        pubkey,
        z
          .object({
            commitment,
            minContextSlot,
            encoding: z.enum(["base58", "base64", "base64+zstd", "jsonParsed"]).optional(),
            dataSlice: z
              .object({ offset: z.number().int().nonnegative(), length: z.number().int().nonnegative() })
              .optional(),
          })
          .optional(),
      ]),
      params,
    );
    const encoding = config?.encoding ?? "base58";
    if (encoding === "base64+zstd")
      throw invalidParams("Invalid params: encoding base64+zstd is not served by this stand-in (use base64)");
    const ctx = context(deps, config);
    const found = deps.chain.account(account);
    if (!found.exists) return { context: ctx, value: null };
    const slice = config?.dataSlice;
    const data = slice ? found.data.subarray(slice.offset, slice.offset + slice.length) : found.data;
    // Like a node: jsonParsed for the accounts it can parse, base64 for every other one.
    const parsed =
      encoding === "jsonParsed" && !slice
        ? parseTokenAccountData(found, (mint) => deps.chain.tokenDecimals(mint))
        : undefined;
    return {
      context: ctx,
      value: {
        data: parsed ?? encodeAccountData(Uint8Array.from(data), encoding === "base58" ? "base58" : "base64"),
        executable: found.executable,
        lamports: found.lamports,
        owner: found.programAddress,
        rentEpoch: rentEpochOfExemptAccounts,
        space: found.data.length,
      },
    };
  },
  getTokenAccountBalance(params, deps) {
    const [account, config] = parse(z.tuple([pubkey, contextConfig]), params);
    const ctx = context(deps, config);
    if (!deps.chain.account(account).exists) throw invalidParams("Invalid param: could not find account");
    const amount = deps.chain.tokenAmount(account);
    if (!amount) throw invalidParams("Invalid param: not a Token account");
    return { context: ctx, value: amount };
  },
  getMinimumBalanceForRentExemption(params, deps) {
    const [dataLength] = parse(
      z.tuple([
        z
          .number()
          .int()
          .nonnegative()
          .max(10 * 1024 * 1024),
        contextConfig,
      ]),
      params,
    );
    return deps.chain.minimumBalanceForRentExemption(dataLength);
  },
  requestAirdrop(params, deps) {
    const [recipient, lamports] = parse(
      z.tuple([pubkey, z.number().int().positive().max(Number.MAX_SAFE_INTEGER), contextConfig]),
      params,
    );
    return deps.airdrop(recipient, BigInt(lamports));
  },
};
