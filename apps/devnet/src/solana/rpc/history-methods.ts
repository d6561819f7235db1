import { getBase58Decoder } from "@solana/kit";
import { z } from "zod";
import type { SolanaTransactionRecord } from "../chain/solana-transaction-record.js";
import { invalidParams, SolanaRpcError, solanaRpcErrorCodes } from "../solana-rpc-error.js";
import {
  context,
  minContextSlot,
  parse,
  pubkey,
  type SolanaRpcMethod,
  signatureText,
} from "./solana-rpc-params.js";

const base58 = getBase58Decoder();

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

/** The methods that read landed transactions: statuses, one transaction, an address's history. */
export const historyMethods: Record<string, SolanaRpcMethod> = {
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
