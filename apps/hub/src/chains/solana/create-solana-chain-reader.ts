import { decodeBase58 } from "@hub/chain";
import { redactUrl } from "@hub/http-client";
import type { SolanaChainReader, SolanaTransactionView } from "./solana-chain-reader.js";

/** Longer than any instruction of a 1232-byte transaction can be in base58. */
const INSTRUCTION_DATA_MAX_CHARS = 1700;

/** Instruction data (base58, bounded by the transaction size) as bytes. */
function instructionData(text: string): Uint8Array {
  if (text.length > INSTRUCTION_DATA_MAX_CHARS) throw new Error("instruction data longer than a transaction");
  if (text === "") return new Uint8Array();
  const bytes = decodeBase58(text, INSTRUCTION_DATA_MAX_CHARS);
  if (!bytes) throw new Error("instruction data is not base58");
  return bytes;
}

interface RpcTransaction {
  slot: number;
  blockTime: number | null;
  transaction: {
    signatures: string[];
    message: {
      accountKeys: string[];
      instructions: Array<{ programIdIndex: number; accounts: number[]; data: string }>;
    };
  };
  meta: {
    err: unknown;
    loadedAddresses?: { writable: string[]; readonly: string[] };
    postTokenBalances?: Array<{ accountIndex: number; mint: string; owner?: string }>;
  } | null;
}

function transactionView(signature: string, found: RpcTransaction): SolanaTransactionView {
  const { message } = found.transaction;
  const loaded = found.meta?.loadedAddresses;
  const keys = [...message.accountKeys, ...(loaded?.writable ?? []), ...(loaded?.readonly ?? [])];
  const key = (index: number): string => {
    const value = keys[index];
    if (value === undefined)
      throw new Error(`transaction ${signature} names account ${index} it does not list`);
    return value;
  };
  return {
    signature,
    slot: found.slot,
    blockTime: found.blockTime ?? 0,
    failed: found.meta === null || (found.meta.err !== null && found.meta.err !== undefined),
    instructions: message.instructions.map((instruction) => ({
      programId: key(instruction.programIdIndex),
      accounts: instruction.accounts.map(key),
      data: instructionData(instruction.data),
    })),
    postTokenBalances: (found.meta?.postTokenBalances ?? []).flatMap((balance) =>
      balance.owner === undefined
        ? []
        : [{ account: key(balance.accountIndex), mint: balance.mint, owner: balance.owner }],
    ),
  };
}

/** A SolanaChainReader over Solana JSON-RPC (HTTP POST), each call under its own timeout. */
export function createSolanaChainReader(config: {
  rpcUrl: string;
  requestTimeoutMs?: number;
  /** What the reader reads at: the chain's finality (`finalized` when absent). */
  commitment?: "finalized" | "confirmed";
}): SolanaChainReader {
  const commitment = config.commitment ?? "finalized";
  let nextId = 0;
  async function rpc<T>(method: string, params: unknown[]): Promise<T> {
    nextId += 1;
    const response = await fetch(config.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId, method, params }),
      signal: AbortSignal.timeout(config.requestTimeoutMs ?? 10_000),
    });
    if (!response.ok) throw new Error(`${method} at ${redactUrl(config.rpcUrl)}: HTTP ${response.status}`);
    const answer = (await response.json()) as { result?: T; error?: { code: number; message: string } };
    if (answer.error) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
    return answer.result as T;
  }
  return {
    genesisHash: () => rpc<string>("getGenesisHash", []),
    slot: () => rpc<number>("getSlot", [{ commitment }]),
    async signaturesForAddress(address, options) {
      const list = await rpc<
        Array<{ signature: string; slot: number; blockTime: number | null; err: unknown }>
      >("getSignaturesForAddress", [
        address,
        {
          commitment,
          limit: options.limit,
          ...(options.before ? { before: options.before } : {}),
          ...(options.until ? { until: options.until } : {}),
        },
      ]);
      return list.map((entry) => ({
        signature: entry.signature,
        slot: entry.slot,
        blockTime: entry.blockTime,
        failed: entry.err !== null && entry.err !== undefined,
      }));
    },
    async transaction(signature) {
      const found = await rpc<RpcTransaction | null>("getTransaction", [
        signature,
        { commitment, encoding: "json", maxSupportedTransactionVersion: 0 },
      ]);
      return found ? transactionView(signature, found) : undefined;
    },
  };
}
