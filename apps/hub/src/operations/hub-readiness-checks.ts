import type { ChainFactsStore } from "../store/chain-facts-store.js";
import type { OperationsStore } from "../store/operations-store.js";
import type { ReadinessCheck } from "./readiness.js";

/** Anything the hub reads over HTTP whose answering it can check (an upstream client). */
export interface ProbedUpstream {
  readonly provider: { readonly id: string };
  /** Undefined when the upstream answers as it should; else why not. */
  ready(signal: AbortSignal): Promise<string | undefined>;
}

/** An EVM chain the reconciler indexes. */
export interface ProbedChain {
  chainDomain: string;
  rpcUrl: string;
  startBlock: number;
}

/** A Solana chain the reconciler indexes. */
export interface ProbedSolanaChain {
  chainDomain: string;
  rpcUrl: string;
}

export function databaseCheck(store: OperationsStore): ReadinessCheck {
  return { name: "database", run: async () => void (await store.ping()) };
}

export function upstreamCheck(upstream: ProbedUpstream): ReadinessCheck {
  return {
    name: `upstream:${upstream.provider.id}`,
    group: "upstream",
    run: (signal) => upstream.ready(signal),
  };
}

/** eth_blockNumber over JSON-RPC. */
export async function chainHead(rpcUrl: string, signal: AbortSignal): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] }),
    signal,
  });
  if (!response.ok) throw new Error(`the RPC answered HTTP ${response.status}`);
  const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
  if (typeof body.result !== "string")
    throw new Error(`the RPC answered no block number: ${body.error?.message ?? "no result"}`);
  return Number.parseInt(body.result, 16);
}

/** The chain's RPC answers a block number. */
export function chainRpcCheck(chain: ProbedChain): ReadinessCheck {
  return {
    name: `chain:${chain.chainDomain}`,
    run: async (signal) => void (await chainHead(chain.rpcUrl, signal)),
  };
}

/**
 * The reconciler's watermark (in the database, so every replica sees the leader's) is at most
 * maxLagBlocks behind the chain's head.
 */
export function reconcilerLagCheck(
  chain: ProbedChain,
  watermarks: Pick<ChainFactsStore, "getWatermark">,
  maxLagBlocks: number,
): ReadinessCheck {
  return {
    name: `reconciler:${chain.chainDomain}`,
    run: async (signal) => {
      const [head, watermark] = await Promise.all([
        chainHead(chain.rpcUrl, signal),
        watermarks.getWatermark(chain.chainDomain),
      ]);
      const indexed = watermark?.lastBlock ?? chain.startBlock - 1;
      const lag = head - indexed;
      return lag > maxLagBlocks
        ? `the reconciler is ${lag} blocks behind the head ${head} (bound ${maxLagBlocks})`
        : undefined;
    },
  };
}

/** getSlot at the `confirmed` commitment the reconciler reads, over Solana JSON-RPC. */
export async function solanaSlot(rpcUrl: string, signal: AbortSignal): Promise<number> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot", params: [{ commitment: "confirmed" }] }),
    signal,
  });
  if (!response.ok) throw new Error(`the RPC answered HTTP ${response.status}`);
  const body = (await response.json()) as { result?: unknown; error?: { message?: string } };
  if (typeof body.result !== "number")
    throw new Error(`the RPC answered no slot: ${body.error?.message ?? "no result"}`);
  return body.result;
}

/** The Solana chain's RPC answers a slot. */
export function solanaChainRpcCheck(chain: ProbedSolanaChain): ReadinessCheck {
  return {
    name: `chain:${chain.chainDomain}`,
    run: async (signal) => void (await solanaSlot(chain.rpcUrl, signal)),
  };
}

/**
 * The Solana reconciler's watermark (the slot its last complete tick read first) is at most
 * maxLagSlots behind the chain's slot; a chain it has never indexed is not ready.
 */
export function solanaReconcilerLagCheck(
  chain: ProbedSolanaChain,
  watermarks: Pick<ChainFactsStore, "getWatermark">,
  maxLagSlots: number,
): ReadinessCheck {
  return {
    name: `reconciler:${chain.chainDomain}`,
    run: async (signal) => {
      const [head, watermark] = await Promise.all([
        solanaSlot(chain.rpcUrl, signal),
        watermarks.getWatermark(chain.chainDomain),
      ]);
      if (!watermark) return `the reconciler has not indexed ${chain.chainDomain} yet`;
      const lag = head - watermark.lastBlock;
      return lag > maxLagSlots
        ? `the reconciler is ${lag} slots behind the slot ${head} (bound ${maxLagSlots})`
        : undefined;
    },
  };
}
