import type { ReadinessCheck } from "../../metrics/readiness.js";
import { type ChainStaleness, staleChainDetail } from "../chain-staleness.js";
import type { ChainFactsStore } from "../../store/chain-facts-store.js";

/** A Solana chain the reconciler indexes. */
export interface ProbedSolanaChain {
  chainDomain: string;
  rpcUrl: string;
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
    advisory: true,
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
  staleness?: ChainStaleness,
): ReadinessCheck {
  return {
    name: `reconciler:${chain.chainDomain}`,
    advisory: true,
    run: async (signal) => {
      const stale = staleChainDetail(staleness, chain.chainDomain);
      if (stale) return stale;
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
