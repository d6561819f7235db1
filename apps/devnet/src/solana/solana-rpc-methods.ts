import { type Address, address, getBase58Decoder } from "@solana/kit";
import { z } from "zod";
import type { SolanaChain, SolanaTransactionRecord } from "./solana-chain.js";
import { decodeBase58Bytes, simulationResult } from "./solana-chain.js";
import { parseTokenAccountData } from "./parse-token-account-data.js";
import { invalidParams, SolanaRpcError, solanaRpcErrorCodes } from "./solana-rpc-error.js";

/** What the RPC server needs beside the chain: the faucet behind requestAirdrop. */
export interface SolanaRpcDeps {
  chain: SolanaChain;
  airdrop(recipient: Address, lamports: bigint): string;
}

type Method = (params: unknown[], deps: SolanaRpcDeps) => unknown;

const base58 = getBase58Decoder();
/** The version this stand-in reports (getVersion): litesvm 1.5.0 runs Agave 3.0's runtime. */
export const solanaStandInVersion = { "solana-core": "3.0.0", "feature-set": 0 } as const;
const rentEpochOfExemptAccounts = 18446744073709551615n;

const commitment = z.enum(["processed", "confirmed", "finalized"]).optional();
const minContextSlot = z.number().int().nonnegative().optional();
const contextConfig = z.object({ commitment, minContextSlot }).optional();

function parse<T>(schema: z.ZodType<T>, params: unknown[]): T {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw invalidParams(
    `Invalid params: ${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`,
  );
}

function bytesOfLength(text: string, length: number): Uint8Array {
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

const pubkey = z
  .string()
  .max(44)
  .transform((text) => {
    bytesOfLength(text, 32);
    return address(text);
  });
const signatureText = z
  .string()
  .max(88)
  .transform((text) => {
    bytesOfLength(text, 64);
    return text;
  });

function context(deps: SolanaRpcDeps, config?: { minContextSlot?: number | undefined }) {
  const slot = deps.chain.slot();
  if (config?.minContextSlot !== undefined && config.minContextSlot > slot)
    throw new SolanaRpcError(
      solanaRpcErrorCodes.minContextSlotNotReached,
      "Minimum context slot has not been reached",
      { contextSlot: slot },
    );
  return { apiVersion: solanaStandInVersion["solana-core"], slot };
}

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

function status(record: SolanaTransactionRecord) {
  return record.err === null ? { Ok: null } : { Err: record.err };
}

// A one-node chain cannot fork: a transaction is final in the slot it lands in.
const confirmationStatus = "finalized";

function jsonTransaction(record: SolanaTransactionRecord) {
  const tx = record.transaction;
  return {
    signatures: tx.signatures.map((signature) => base58.decode(signature)),
    message: {
      accountKeys: tx.accountKeys,
      header: tx.header,
      recentBlockhash: tx.recentBlockhash,
      instructions: tx.instructions.map((instruction) => ({
        programIdIndex: instruction.programIdIndex,
        accounts: instruction.accounts,
        data: base58.decode(instruction.data),
        stackHeight: null,
      })),
      ...(tx.version === 0 ? { addressTableLookups: [] } : {}),
    },
  };
}

const methods: Record<string, Method> = {
  getHealth: () => "ok",
  getVersion: () => solanaStandInVersion,
  getGenesisHash: (_params, { chain }) => chain.genesisHash,
  getSlot(params, deps) {
    const [config] = parse(z.tuple([contextConfig]), params);
    return context(deps, config).slot;
  },
  getBlockHeight(params, deps) {
    const [config] = parse(z.tuple([contextConfig]), params);
    return context(deps, config).slot;
  },
  getLatestBlockhash(params, deps) {
    const [config] = parse(z.tuple([contextConfig]), params);
    return { context: context(deps, config), value: deps.chain.latestBlockhash() };
  },
  isBlockhashValid(params, deps) {
    const [blockhash, config] = parse(z.tuple([z.string().max(44), contextConfig]), params);
    bytesOfLength(blockhash, 32);
    return { context: context(deps, config), value: deps.chain.isBlockhashValid(blockhash) };
  },
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
  getSignatureStatuses(params, deps) {
    const [signatures, config] = parse(
      z.tuple([
        z.array(signatureText).max(256),
        z.object({ searchTransactionHistory: z.boolean().optional() }).optional(),
      ]),
      params,
    );
    const ctx = context(deps);
    void config;
    return {
      context: ctx,
      value: signatures.map((signature) => {
        const record = deps.chain.transaction(signature);
        return record
          ? {
              slot: record.slot,
              confirmations: null,
              err: record.err,
              status: status(record),
              confirmationStatus,
            }
          : null;
      }),
    };
  },
  getTransaction(params, deps) {
    const configSchema = z.object({
      commitment: z.enum(["confirmed", "finalized"]).optional(),
      encoding: z.enum(["json", "jsonParsed", "base58", "base64"]).optional(),
      maxSupportedTransactionVersion: z.literal(0).optional(),
    });
    const [signature, rawConfig] = parse(
      z.tuple([
        signatureText,
        z.union([z.enum(["json", "jsonParsed", "base58", "base64"]), configSchema]).optional(),
      ]),
      params,
    );
    const config = typeof rawConfig === "string" ? { encoding: rawConfig } : (rawConfig ?? {});
    const encoding = config.encoding ?? "json";
    if (encoding === "jsonParsed")
      throw invalidParams(
        "Invalid params: encoding jsonParsed is not served by this stand-in (use json or base64)",
      );
    const record = deps.chain.transaction(signature);
    if (!record) return null;
    const maxVersion =
      "maxSupportedTransactionVersion" in config ? config.maxSupportedTransactionVersion : undefined;
    if (record.transaction.version === 0 && maxVersion === undefined)
      throw new SolanaRpcError(
        solanaRpcErrorCodes.unsupportedTransactionVersion,
        'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
      );
    const transaction =
      encoding === "json"
        ? jsonTransaction(record)
        : encoding === "base64"
          ? [Buffer.from(record.transaction.bytes).toString("base64"), "base64"]
          : [base58.decode(record.transaction.bytes), "base58"];
    return {
      slot: record.slot,
      blockTime: record.blockTime,
      transaction,
      meta: {
        err: record.err,
        status: status(record),
        fee: record.fee,
        preBalances: record.preBalances,
        postBalances: record.postBalances,
        innerInstructions: record.innerInstructions.map((entry) => ({
          index: entry.index,
          instructions: entry.instructions.map((instruction) => ({
            ...instruction,
            data: base58.decode(instruction.data),
          })),
        })),
        logMessages: record.logMessages,
        preTokenBalances: record.preTokenBalances,
        postTokenBalances: record.postTokenBalances,
        rewards: [],
        loadedAddresses: { writable: [], readonly: [] },
        computeUnitsConsumed: record.computeUnitsConsumed,
      },
      ...(maxVersion !== undefined ? { version: record.transaction.version } : {}),
    };
  },
  getSignaturesForAddress(params, deps) {
    const [account, config] = parse(
      z.tuple([
        pubkey,
        z
          .object({
            commitment: z.enum(["confirmed", "finalized"]).optional(),
            minContextSlot,
            limit: z.number().int().min(1).max(1000).optional(),
            before: signatureText.optional(),
            until: signatureText.optional(),
          })
          .optional(),
      ]),
      params,
    );
    context(deps, config);
    return deps.chain
      .signaturesForAddress(account, {
        ...(config?.before ? { before: config.before } : {}),
        ...(config?.until ? { until: config.until } : {}),
        limit: config?.limit ?? 1000,
      })
      .map((record) => ({
        signature: record.signature,
        slot: record.slot,
        err: record.err,
        memo: record.memo,
        blockTime: record.blockTime,
        confirmationStatus,
      }));
  },
};

/** Runs one call; every refusal is a SolanaRpcError. */
export function callSolanaRpcMethod(method: string, params: unknown, deps: SolanaRpcDeps): unknown {
  const run = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (!run) throw new SolanaRpcError(solanaRpcErrorCodes.methodNotFound, "Method not found");
  if (params !== undefined && !Array.isArray(params))
    throw invalidParams("Invalid params: params must be an array");
  return run(params ?? [], deps);
}
